/**
 * Validation of a presented token against signature, claims and the stored state: a token counts only
 * while its record is live and its user is still active. This is what makes logout and revocation
 * immediate (docs/tokens.md#tokens-are-stateful).
 */
import type { EntityManager } from '@mikro-orm/core';
import { inTransaction, type OpContext } from '../../kernel/context.ts';
import type { Deps } from '../../kernel/deps.ts';
import { AppError } from '../../kernel/errors.ts';
import type { UserRow } from '../users/index.ts';
import { heldRoles } from '../users/index.ts';
import { activeUser, findActiveUser } from '../sessions/index.ts';
import { isActiveClientId, knownActiveClientId } from '../clients/index.ts';
import { sha256Hex } from '../../kernel/crypto.ts';
import { rememberedClaims, verifyToken, type Claims, type TokenType } from './jwt.ts';
import { ANY_CLIENT, registeredClientOf, type Audience } from './audience.ts';
import { findTokenRecord, recordIsLive } from './token-records.ts';
import type { TokenKind } from './token-record.entity.ts';
import type { TokenRecordState, TokenStateCache } from './state-cache/index.ts';
import { deepFreeze } from './state-cache/snapshots.ts';

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

/** The record must be this token's, of its kind, live, and (a refresh token) not yet rotated. */
function checkRecord(record: TokenRecordState | null, claims: Claims, type: TokenType, now: Date): TokenRecordState {
  if (!record || record.kind !== KIND_OF[type] || record.userId !== claims.sub) throw AppError.unauthenticated('invalid token');
  if (!recordIsLive(record, now)) throw AppError.unauthenticated('token has been revoked');
  if (record.rotatedAt != null) throw AppError.unauthenticated('refresh token has already been used');
  return record;
}

function checkUser(user: UserRow | null): UserRow {
  if (!user) throw AppError.unauthenticated('user access has been revoked');
  return user;
}

/**
 * Tokens of a registered client (audience.ts registeredClientOf) end with it: once it is deactivated or
 * deleted they stop validating here and at /userinfo (RFC 7662 section 2.2 treats them as not active).
 * Across instances the client cache's few seconds of staleness bound it (client-auth-cache.ts).
 */
function checkClientActive(active: boolean): void {
  if (!active) throw AppError.unauthenticated('the client this token was issued to is no longer active');
}

/**
 * Verifies a token of ours for an acceptor of `audience` (audience.ts), and its stored state. Throws
 * AppError('unauthenticated').
 */
export async function checkIssuedToken(ctx: OpContext & { em?: EntityManager }, token: string, type: TokenType, audience: Audience): Promise<IssuedToken> {
  const cache = cacheFor(ctx);
  const tokenHash = cache && token ? sha256Hex(token) : undefined;
  // With a hash, the claims memo of the cache spares the signature check of a token seen before.
  const claims = await verifyToken(ctx.deps, token, type, audience, tokenHash);
  const now = ctx.deps.clock.now();
  const found = cache && tokenHash ? await cache.tokenRecord(tokenHash) : await findTokenRecord(emOf(ctx), token);
  const record = checkRecord(found, claims, type, now);
  const user = checkUser(cache ? activeUser(await cache.user(record.userId)) : await findActiveUser(emOf(ctx), record.userId));
  const clientId = registeredClientOf(claims, ctx.deps.config.clientId);
  if (clientId !== undefined) checkClientActive(await isActiveClientId(ctx.deps.storage, clientId, now));
  return { claims, record, user };
}

/**
 * checkIssuedToken answered synchronously from memory, outside a transaction, when the token state cache
 * holds all it needs (the verified claims, the record and the user, each while the cache may answer them)
 * and the client cache knows the token's registered client if it has one; undefined otherwise, and the
 * caller takes checkIssuedToken. The checks, their order and their refusals are checkIssuedToken's, so both
 * give the same answer for the same state; this one saves the promise chain on the call every resource
 * server makes on every request.
 */
export function checkIssuedTokenInMemory(deps: Deps, token: string, type: TokenType, audience: Audience): IssuedToken | undefined {
  const cache = deps.tokenState;
  if (!cache || !token) return undefined;
  const tokenHash = sha256Hex(token);
  const claims = rememberedClaims(deps, tokenHash, type, audience);
  if (!claims) return undefined;
  const found = cache.cachedTokenRecord(tokenHash);
  if (!found) return undefined;
  const now = deps.clock.now();
  const record = checkRecord(found, claims, type, now);
  const cachedUser = cache.cachedUser(record.userId);
  if (!cachedUser) return undefined;
  const user = checkUser(activeUser(cachedUser));
  const clientId = registeredClientOf(claims, deps.config.clientId);
  if (clientId !== undefined) {
    const active = knownActiveClientId(deps.storage, clientId, now);
    if (active === undefined) return undefined;
    checkClientActive(active);
  }
  return { claims, record, user };
}



/**
 * validate_jwt_token's check: the claims of a live access, ID or refresh token of this server, issued to the
 * instance client or to any registered client (resource servers check both, audience.ts ANY_CLIENT).
 */
export async function validateToken(ctx: OpContext & { em?: EntityManager }, token: string, tokenType: TokenType): Promise<Claims> {
  return (await checkIssuedToken(ctx, token, tokenType, ANY_CLIENT)).claims;
}

/** The roles of `issued` its user still holds (see currentRolesOf), computed afresh. */
function heldRolesOf(issued: IssuedToken, roleClaim: string): string[] {
  const { claims, user } = issued;
  return heldRoles(user, claims.roles ?? claims[roleClaim]);
}

/** The token's claims with its role claims narrowed to `roles` (see withCurrentRoles), computed afresh. */
function narrowedClaims(issued: IssuedToken, roleClaim: string, roles: string[]): Claims {
  const claims: Claims = { ...issued.claims };
  if (claims.roles !== undefined) claims.roles = roles;
  if (roleClaim !== 'roles' && claims[roleClaim] !== undefined) claims[roleClaim] = roles;
  if (claims.allowed_roles !== undefined) claims.allowed_roles = [...issued.user.roles];
  return claims;
}

interface CurrentAnswer {
  readonly user: UserRow;
  readonly roleClaim: string;
  readonly roles: readonly string[];
  readonly claims: Claims;
}

/**
 * The current roles and narrowed claims per verified-claims object, while the user snapshot they were
 * computed with is the one the token state cache still answers. Both are frozen cache entries
 * (state-cache/snapshots.ts): the same objects mean the same token and the same roles held, so the answer
 * is the same too. A new user snapshot (a role change, or the cache reading the row again) makes a new
 * answer. Keyed weakly on the claims object, so an entry lives no longer than the cache keeps those claims.
 */
const currentAnswers = new WeakMap<Claims, CurrentAnswer>();

/** The frozen answer for cache entries (remembered), or undefined for rows read outside the cache. */
function rememberedAnswer(issued: IssuedToken, roleClaim: string): CurrentAnswer | undefined {
  if (!Object.isFrozen(issued.claims) || !Object.isFrozen(issued.user)) return undefined;
  const known = currentAnswers.get(issued.claims);
  if (known && known.user === issued.user && known.roleClaim === roleClaim) return known;
  const roles = heldRolesOf(issued, roleClaim);
  const answer = deepFreeze({ user: issued.user, roleClaim, roles, claims: narrowedClaims(issued, roleClaim, roles) });
  currentAnswers.set(issued.claims, answer);
  return answer;
}

/**
 * The roles a token may use now: those it carries (`roles`, or the --jwt-role-claim of an ID token) that
 * its user still holds. A role removed by an administrator stops counting at once, not when the token expires.
 */
export function currentRolesOf(issued: IssuedToken, roleClaim: string): readonly string[] {
  return rememberedAnswer(issued, roleClaim)?.roles ?? heldRolesOf(issued, roleClaim);
}

/**
 * The claims validate_jwt_token answers: the token's, with its role claims narrowed to what the user holds
 * now (and allowed_roles to the user's current roles), so a resource server reading roles from the answer
 * does not act on a role that was taken away after the token was signed. Answers from the token state
 * cache get the same frozen object for as long as the claims and the user snapshot are the same, so a
 * transport may keep what it made of it (the REST body, transports/http/validate-route.ts).
 */
export function withCurrentRoles(issued: IssuedToken, roleClaim: string): Claims {
  return rememberedAnswer(issued, roleClaim)?.claims ?? narrowedClaims(issued, roleClaim, heldRolesOf(issued, roleClaim));
}
