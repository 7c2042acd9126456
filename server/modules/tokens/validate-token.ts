/**
 * Validation of a presented token against signature, claims and the stored state: a token counts only
 * while its record is live and its user is still active. This is what makes logout and revocation
 * immediate (reference.md "Tokens are stateful").
 */
import type { EntityManager } from '@mikro-orm/core';
import { inTransaction, type OpContext } from '../../kernel/context.ts';
import { AppError } from '../../kernel/errors.ts';
import type { UserRow } from '../users/user.entity.ts';
import { heldRoles } from '../users/roles.ts';
import { activeUser, findActiveUser } from '../sessions/index.ts';
import { sha256Hex } from '../../kernel/crypto.ts';
import { verifyToken, type Claims, type TokenType } from './jwt.ts';
import { findTokenRecord, recordIsLive } from './token-records.ts';
import type { TokenKind } from './token-record.entity.ts';
import type { TokenRecordState, TokenStateCache } from './state-cache/index.ts';

const KIND_OF: Record<TokenType, TokenKind> = { access_token: 'access', id_token: 'id', refresh_token: 'refresh' };

export interface IssuedToken {
  claims: Claims;
  record: TokenRecordState;
  user: UserRow;
}

/**
 * Whether to answer from the token state cache: not inside a transaction, whose reads must see the
 * database as that transaction does (a session refresh re-reads its cookie there so that one of two
 * concurrent refreshes loses).
 */
function cacheFor(ctx: OpContext & { em?: EntityManager }): TokenStateCache | undefined {
  return inTransaction(ctx) ? undefined : ctx.deps.tokenState;
}

/** The entity manager of a handler, or a fresh unit of work for callers outside one (authenticators). */
function emOf(ctx: OpContext & { em?: EntityManager }): EntityManager {
  return ctx.em ?? ctx.deps.storage.fork();
}

/** Verifies a token of ours and its stored state. Throws AppError('unauthenticated'). */
export async function checkIssuedToken(ctx: OpContext & { em?: EntityManager }, token: string, type: TokenType): Promise<IssuedToken> {
  const cache = cacheFor(ctx);
  const tokenHash = cache && token ? sha256Hex(token) : undefined;
  // With a hash, the claims memo of the cache spares the signature check of a token seen before.
  const claims = await verifyToken(ctx.deps, token, type, tokenHash);
  const record = cache && tokenHash ? await cache.tokenRecord(tokenHash) : await findTokenRecord(emOf(ctx), token);
  if (!record || record.kind !== KIND_OF[type] || record.userId !== claims.sub) throw AppError.unauthenticated('invalid token');
  if (!recordIsLive(record, ctx.deps.clock.now())) throw AppError.unauthenticated('token has been revoked');
  if (record.rotatedAt != null) throw AppError.unauthenticated('refresh token has already been used');
  const user = cache ? activeUser(await cache.user(record.userId)) : await findActiveUser(emOf(ctx), record.userId);
  if (!user) throw AppError.unauthenticated('user access has been revoked');
  return { claims, record, user };
}

/** validate_jwt_token: the claims of a live access, ID or refresh token of this server. */
export async function validateToken(ctx: OpContext & { em?: EntityManager }, token: string, tokenType: TokenType): Promise<Claims> {
  return (await checkIssuedToken(ctx, token, tokenType)).claims;
}

/**
 * The roles a token may use now: those it carries (`roles`, or the --jwt-role-claim of an ID token) that
 * its user still holds. A role removed by an administrator stops counting at once, not when the token expires.
 */
export function currentRolesOf(issued: IssuedToken, roleClaim: string): string[] {
  const { claims, user } = issued;
  return heldRoles(user, claims.roles ?? claims[roleClaim]);
}

/**
 * The claims validate_jwt_token answers: the token's, with its role claims narrowed to what the user holds
 * now (and allowed_roles to the user's current roles), so a resource server reading roles from the answer
 * does not act on a role that was taken away after the token was signed.
 */
export function withCurrentRoles(issued: IssuedToken, roleClaim: string): Claims {
  const roles = currentRolesOf(issued, roleClaim);
  const claims: Claims = { ...issued.claims };
  if (claims.roles !== undefined) claims.roles = roles;
  if (roleClaim !== 'roles' && claims[roleClaim] !== undefined) claims[roleClaim] = roles;
  if (claims.allowed_roles !== undefined) claims.allowed_roles = [...issued.user.roles];
  return claims;
}
