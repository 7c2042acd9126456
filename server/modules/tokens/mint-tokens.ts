/**
 * Signs the access, ID and (with a refresh family) refresh token of a session and records their hashes.
 * Shared by login (issue-session.ts) and the refresh grant (refresh.ts). `user` must be read in the caller's
 * unit of work: the tokens carry the roles the session asked for that the user holds now (heldRoles), and
 * none of them lives past the login's absolute end (lifetimes.ts).
 */
import { sidOf } from './session-id-claim.ts';
import type { EntityManager } from '@mikro-orm/core';
import type { OpContext } from '../../kernel/context.ts';
import { toPublicUser, heldRoles, provenAddressClaims } from '../users/index.ts';
import type { UserRow } from '../users/index.ts';
import { claimsForScope } from './scope-claims.ts';
import { authTimeOf, type SessionRow } from '../sessions/index.ts';
import { absoluteEndOf } from './lifetimes.ts';
import { accessTokenClaims, expiryOf, idTokenClaims, refreshTokenClaims, type Grant } from './claims.ts';
import { customClaims } from './custom-claims-script.ts';
import { signToken } from './jwt.ts';
import { recordToken } from './token-records.ts';
import { orgClaimsFor, orgIdOfLoginMethod } from './org-claims.ts';
import { confirmationOf } from './dpop/binding.ts';

/** What login and refresh answer; expires_in is seconds until the access token expires (docs/tokens.md). */
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
  /** The registered client the tokens are for (claims.ts Grant.clientId); absent for the instance client. */
  clientId?: string;
  /** RFC 8707 resource indicator the access token is for (claims.ts Grant.resource). */
  resource?: string;
  /** RFC 9449 section 6.1: the DPoP key thumbprint the access token is bound to (cnf.jkt). */
  dpopJkt?: string;
  /** RFC 9449 section 5: the key a public client's refresh token is bound to (cnf.jkt), the proof's of its issuance. */
  refreshJkt?: string;
}

export async function mintTokens(ctx: OpContext, em: EntityManager, input: MintInput): Promise<TokenSet> {
  const { config, keys, clock } = ctx.deps;
  const { user, session } = input;
  const now = clock.now();
  const authTime = authTimeOf(session);
  const grant: Grant = {
    userId: user.id,
    roles: heldRoles(user, session.roles),
    allowedRoles: [...user.roles],
    scope: input.scope,
    loginMethod: session.loginMethod,
    nonce: input.nonce,
    authTime,
    notAfter: absoluteEndOf(authTime),
    ...(input.clientId ? { clientId: input.clientId } : {}),
    ...(input.resource ? { resource: input.resource } : {}),
  };
  const publicUser = toPublicUser(user);
  // An organization's SSO session also names the organization and the member's org roles (org-claims.ts);
  // other sessions read nothing and wait for nothing.
  const orgId = orgIdOfLoginMethod(session.loginMethod);
  const org = orgId ? await orgClaimsFor(em, orgId, user.id) : undefined;
  const core = { ...accessTokenClaims(config, grant, now), ...org, ...(input.dpopJkt ? confirmationOf(input.dpopJkt) : {}) };
  // Reserved claims are filtered by customClaims and then laid over its result: they cannot be overridden.
  // Without a script there is nothing to wait for: no sandbox round trip, no promise hop.
  const accessClaims = config.customAccessTokenScript?.trim()
    ? { ...(await customClaims(config.customAccessTokenScript, publicUser, core, ctx.log)), ...core }
    : core;
  const accessToken = signToken(keys, accessClaims);
  // The ID token asserts an address verified only when it was proven (OpenID Connect Core 5.1; relying
  // parties link accounts by it), not merely marked so as the User object says (users/address-proof.ts).
  // A registered client gets the claims its granted scope asks for (OpenID Connect Core 5.4), as at
  // /userinfo; the instance client, the first-party application, keeps the User object the SDK reads.
  const idUser = input.clientId ? claimsForScope(user, input.scope) : { ...publicUser, ...provenAddressClaims(user) };
  // sid (OpenID Connect Back-Channel Logout 1.0 §2.4): the session a logout token will name.
  const idClaims = { ...idTokenClaims(config, grant, now, idUser, keys.alg, accessToken), ...org, sid: sidOf(session.id) };
  const idToken = signToken(keys, idClaims);
  const base = { userId: user.id, sessionId: session.id, familyId: input.familyId };
  recordToken(em, { ...base, token: accessToken, kind: 'access', expiresAt: expiryOf(accessClaims) });
  recordToken(em, { ...base, token: idToken, kind: 'id', expiresAt: expiryOf(idClaims) });
  // Seconds the access token really lives: less than 30 min near the absolute end.
  const expiresIn = Math.max(0, (core.exp ?? 0) - (core.iat ?? 0));
  const tokens: TokenSet = { access_token: accessToken, id_token: idToken, expires_in: expiresIn };
  if (input.familyId) {
    const refreshGrant = { ...grant, scope: input.refreshScope ?? input.scope };
    const refreshClaims = { ...refreshTokenClaims(config, refreshGrant, now, input.familyId), ...(input.refreshJkt ? confirmationOf(input.refreshJkt) : {}) };
    tokens.refresh_token = signToken(keys, refreshClaims);
    recordToken(em, { ...base, token: tokens.refresh_token, kind: 'refresh', expiresAt: expiryOf(refreshClaims) });
  }
  return tokens;
}
