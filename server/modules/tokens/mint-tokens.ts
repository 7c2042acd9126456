/**
 * Signs the access, ID and (with a refresh family) refresh token of a session and records their hashes.
 * Shared by login (issue-session.ts) and the refresh grant (refresh.ts).
 */
import type { EntityManager } from '@mikro-orm/core';
import type { OpContext } from '../../kernel/context.ts';
import { toPublicUser } from '../users/user.schema.ts';
import type { UserRow } from '../users/user.entity.ts';
import type { SessionRow } from '../sessions/index.ts';
import { ACCESS_TOKEN_SECONDS } from './lifetimes.ts';
import { accessTokenClaims, expiryOf, idTokenClaims, refreshTokenClaims, type Grant } from './claims.ts';
import { customClaims } from './custom-claims-script.ts';
import { signToken } from './jwt.ts';
import { recordToken } from './token-records.ts';

/** What login and refresh answer; expires_in is seconds until the access token expires (reference.md). */
export interface TokenSet {
  access_token: string;
  id_token: string;
  refresh_token?: string;
  expires_in: number;
}

export interface MintInput {
  user: UserRow;
  session: SessionRow;
  /** Scope of the access and ID token. */
  scope: string[];
  /** Scope the refresh token keeps (the original grant; a refresh may narrow only its access token). */
  refreshScope?: string[];
  nonce: string;
  /** A refresh token is issued only within a family (scope with offline_access). */
  familyId: string | null;
}

export async function mintTokens(ctx: OpContext, em: EntityManager, input: MintInput): Promise<TokenSet> {
  const { config, keys, clock } = ctx.deps;
  const { user, session } = input;
  const now = clock.now();
  const grant: Grant = {
    userId: user.id,
    roles: session.roles,
    allowedRoles: user.roles,
    scope: input.scope,
    loginMethod: session.loginMethod,
    nonce: input.nonce,
    authTime: session.createdAt,
  };
  const publicUser = toPublicUser(user);
  const core = accessTokenClaims(config, grant, now);
  // Reserved claims are filtered by customClaims and then laid over its result: they cannot be overridden.
  const accessClaims = { ...(await customClaims(config.customAccessTokenScript, publicUser, core, ctx.log)), ...core };
  const accessToken = await signToken(keys, accessClaims);
  const idClaims = idTokenClaims(config, grant, now, publicUser, keys.alg, accessToken);
  const idToken = await signToken(keys, idClaims);
  const base = { userId: user.id, sessionId: session.id, familyId: input.familyId };
  recordToken(em, { ...base, token: accessToken, kind: 'access', expiresAt: expiryOf(accessClaims) });
  recordToken(em, { ...base, token: idToken, kind: 'id', expiresAt: expiryOf(idClaims) });
  const tokens: TokenSet = { access_token: accessToken, id_token: idToken, expires_in: ACCESS_TOKEN_SECONDS };
  if (input.familyId) {
    const refreshGrant = { ...grant, scope: input.refreshScope ?? input.scope };
    const refreshClaims = refreshTokenClaims(config, refreshGrant, now, input.familyId);
    tokens.refresh_token = await signToken(keys, refreshClaims);
    recordToken(em, { ...base, token: tokens.refresh_token, kind: 'refresh', expiresAt: expiryOf(refreshClaims) });
  }
  return tokens;
}
