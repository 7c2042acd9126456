/**
 * The refresh grant (RFC 6749 section 6; docs/tokens.md): a refresh token is exchanged once for a new
 * access, ID and refresh token of the same family and session. Presenting an exchanged (rotated) token again
 * means it was copied: the whole family and its session are revoked and the call is refused.
 *
 * Pass an entity manager that is not inside a transaction (a fresh storage.fork()): the revocation on reuse
 * is committed before the refusal is thrown, which a surrounding transaction would roll back.
 */
import type { EntityManager } from '@mikro-orm/core';
import type { OpContext } from '../../kernel/context.ts';
import { AppError } from '../../kernel/errors.ts';
import { sha256Hex } from '../../kernel/crypto.ts';
import { authTimeOf, findActiveUser, findSession } from '../sessions/index.ts';
import { absoluteEndOf } from './lifetimes.ts';
import { verifyToken } from './jwt.ts';
import { issuedTo } from './audience.ts';
import { claimRefreshRotation, findTokenRecord } from './token-records.ts';
import { mintTokens, type TokenSet } from './mint-tokens.ts';
import { revokeFamily } from './end-session.ts';
import { invalidateTokenState } from './state-cache/index.ts';
import { boundKeyOf } from './dpop/binding.ts';

/** A requested scope beyond the original grant (RFC 6749 section 5.2 `invalid_scope`). */
export class InvalidScopeError extends AppError {
  constructor(message: string) {
    super('invalid_argument', message);
    this.name = 'InvalidScopeError';
  }
}

/** A requested resource the refresh token was not granted for (RFC 8707 section 2 `invalid_target`). */
export class InvalidTargetError extends AppError {
  constructor(message: string) {
    super('invalid_argument', message);
    this.name = 'InvalidTargetError';
  }
}

export interface RefreshedTokens extends TokenSet {
  refresh_token: string;
  /** Scope of the new access token. */
  scope: string[];
}

const REUSED = Symbol('reused');

function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

export async function refreshTokens(
  ctx: OpContext,
  em: EntityManager,
  refreshToken: string,
  options: {
    scope?: string[]; clientId?: string; resource?: string;
    /** RFC 9449: the thumbprint of the key of the DPoP proof that came with the request, if one did. */
    dpopJkt?: string;
    /** A client without credentials: its new refresh token is bound to the proof's key (RFC 9449 section 5). */
    publicClient?: boolean;
  } = {},
): Promise<RefreshedTokens> {
  // RFC 6749 section 6: the refresh token must have been issued to the authenticated client. Tokens of a
  // registered client name it in azp (claims.ts); tokens without azp belong to the instance client. So
  // client B cannot spend client A's token, nor a public caller a confidential client's.
  const claims = await verifyToken(ctx.deps, refreshToken, 'refresh_token', issuedTo(options.clientId));
  const record = await findTokenRecord(em, refreshToken);
  if (!record || record.kind !== 'refresh' || !record.familyId || record.userId !== claims.sub) {
    throw AppError.unauthenticated('invalid refresh token');
  }
  if (record.revokedAt != null) throw AppError.unauthenticated('refresh token has been revoked');
  // RFC 9449 section 5: a bound refresh token is spent only with a proof of its key; checked before the
  // rotation, so a copy without the key cannot spend it (nor make its holder's next refresh look like reuse).
  const boundTo = boundKeyOf(claims);
  if (boundTo && boundTo !== options.dpopJkt) {
    throw AppError.unauthenticated(options.dpopJkt
      ? 'the refresh token is bound to another DPoP key'
      : 'the refresh token is DPoP-bound: send a DPoP proof made with its key');
  }
  const granted = stringList(claims.scope);
  const requested = options.scope && options.scope.length > 0 ? [...new Set(options.scope)] : granted;
  const beyond = requested.filter((s) => !granted.includes(s));
  if (beyond.length > 0) throw new InvalidScopeError(`scope not granted to this refresh token: ${beyond.join(' ')}`);
  // RFC 8707 section 2.2: a refresh may name a resource only among those originally granted.
  const resource = typeof claims.resource === 'string' ? claims.resource : undefined;
  if (options.resource !== undefined && options.resource !== resource) {
    throw new InvalidTargetError('resource was not granted to this refresh token');
  }

  const now = ctx.deps.clock.now();
  const familyId = record.familyId;
  const outcome = await em.transactional(async (tx) => {
    // Rotation and the new records commit together; the conditional update makes one exchange win a race.
    if (record.rotatedAt != null || !(await claimRefreshRotation(tx, sha256Hex(refreshToken), now))) return REUSED;
    // The exchanged token stops validating (as a refresh token) once this commits.
    await invalidateTokenState(tx, { sessionId: record.sessionId });
    const session = await findSession(tx, record.sessionId);
    if (!session || session.revokedAt != null) throw AppError.unauthenticated('session has ended');
    // A refresh token issued before exp was capped may outlive the login; the session's start decides.
    if (absoluteEndOf(authTimeOf(session)).getTime() <= now.getTime()) {
      throw AppError.unauthenticated('the session has reached its maximum lifetime: sign in again');
    }
    const user = await findActiveUser(tx, record.userId);
    if (!user) throw AppError.unauthenticated('user access has been revoked');
    const nonce = typeof claims.nonce === 'string' ? claims.nonce : '';
    // A refresh token issued to a registered client (azp) keeps minting for that client.
    const tokens = await mintTokens(ctx, tx, {
      user, session, scope: requested, refreshScope: granted, nonce, familyId, clientId: options.clientId, ...(resource ? { resource } : {}),
      // The new access token is bound to the proof presented now; a confidential client's refresh token is
      // not bound (RFC 9449 section 5: its client authentication already ties it), a public client's is.
      ...(options.dpopJkt ? { dpopJkt: options.dpopJkt } : {}),
      ...(options.dpopJkt && options.publicClient ? { refreshJkt: options.dpopJkt } : {}),
    });
    return { ...tokens, refresh_token: tokens.refresh_token!, scope: requested };
  });
  if (outcome === REUSED) {
    await revokeFamily(em, now, familyId, record.sessionId);
    ctx.log.warn({ userId: record.userId }, 'reuse of a rotated refresh token: its family and session were revoked');
    throw AppError.unauthenticated('refresh token has already been used; its tokens have been revoked');
  }
  return outcome;
}
