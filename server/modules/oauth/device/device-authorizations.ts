/**
 * The device authorization grant's state (RFC 8628; device-authorization.entity.ts): opening a request for a
 * client (section 3.1), finding it by the user code a signed-in person typed (section 3.3) with wrong codes
 * counted and locked out (section 5.1), their decision, and the device's polling (section 3.5) up to the
 * one redemption of an approved request.
 */
import { rememberSessionClient } from '../backchannel/index.ts';
import type { EntityManager } from '@mikro-orm/core';
import type { OpContext } from '../../../kernel/context.ts';
import { AppError } from '../../../kernel/errors.ts';
import { OAuthError } from '../../../kernel/oauth-error.ts';
import { randomToken, sha256Hex } from '../../../kernel/crypto.ts';
import { clientKey } from '../../limits/index.ts';
import { authTimeOf, findActiveUser, findSession } from '../../sessions/index.ts';
import { OFFLINE_ACCESS, mintTokens, openSessionFromApproval, revokeSession, type TokenSet } from '../../tokens/index.ts';
import { DeviceAuthorization, type DeviceAuthorizationRow } from './device-authorization.entity.ts';
import { newUserCode, normalizedUserCode, userCodeDigest } from './user-code.ts';

/** RFC 8628 section 3.2 expires_in: 10 minutes to walk to a browser and sign in. */
export const DEVICE_CODE_SECONDS = 600;
/** RFC 8628 section 3.2 interval: the default of 5 seconds. */
export const POLL_INTERVAL_SECONDS = 5;
/** RFC 8628 section 3.5: slow_down adds 5 seconds to the interval. */
export const SLOW_DOWN_SECONDS = 5;

export interface OpenedDeviceAuthorization {
  deviceCode: string;
  userCode: string;
  expiresIn: number;
  interval: number;
}

export async function openDeviceAuthorization(em: EntityManager, now: Date, clientId: string, scope: string[]): Promise<OpenedDeviceAuthorization> {
  const deviceCode = randomToken(32);
  // Two live requests must not share a user code (its digest is unique): 2.6e10 values make a draw that
  // meets a stored one rare, and a second draw settles it.
  let userCode = newUserCode();
  while ((await em.count(DeviceAuthorization, { userCodeHash: userCodeDigest(normalizedUserCode(userCode)!) })) > 0) userCode = newUserCode();
  em.create(DeviceAuthorization, {
    id: sha256Hex(deviceCode),
    userCodeHash: userCodeDigest(normalizedUserCode(userCode)!),
    clientId,
    scope,
    createdAt: now,
    expiresAt: new Date(now.getTime() + DEVICE_CODE_SECONDS * 1000),
    intervalSeconds: POLL_INTERVAL_SECONDS,
    lastPolledAt: null,
    decision: null,
    userId: null,
    sessionId: null,
    usedAt: null,
    issuedSessionId: null,
  });
  // Requests that ended more than a lifetime ago go now (their codes can no longer collide or be redeemed).
  await em.nativeDelete(DeviceAuthorization, { expiresAt: { $lt: new Date(now.getTime() - DEVICE_CODE_SECONDS * 1000) } });
  await em.flush();
  return { deviceCode, userCode, expiresIn: DEVICE_CODE_SECONDS, interval: POLL_INTERVAL_SECONDS };
}

/** Who is typing a user code: the limiter keys of their address and their session. */
export interface CodeEntrant {
  ip: string;
  sessionId: string;
}

function guessKeys(entrant: CodeEntrant): string[] {
  return [`ip:${clientKey(entrant.ip)}`, `session:${entrant.sessionId.slice(0, 64)}`];
}

const NOT_FOUND = 'this code is wrong, expired or already used';

/**
 * The pending, unexpired request whose user code was typed. A locked address or session is refused before
 * the code is even looked at; a miss of any kind (malformed, unknown, expired, decided) counts one wrong try
 * against both, with the same answer, so a guess tells nothing about other codes (RFC 8628 section 5.1).
 */
export async function findByUserCode(ctx: OpContext, em: EntityManager, typed: string, entrant: CodeEntrant): Promise<DeviceAuthorizationRow> {
  const { limits, clock } = ctx.deps;
  const keys = guessKeys(entrant);
  for (const key of keys) {
    const wait = await limits.retryAfter('device_user_code_guess', key);
    if (wait > 0) throw AppError.tooManyRequests('too many wrong codes: try again later', wait);
  }
  const normalized = normalizedUserCode(typed);
  const row = normalized ? await em.findOne(DeviceAuthorization, { userCodeHash: userCodeDigest(normalized) }) : null;
  if (row && row.decision === null && row.expiresAt.getTime() > clock.now().getTime()) return row;
  // consume throws too_many_requests once this miss spends the allowance: the lock starts now.
  for (const key of keys) await limits.consume('device_user_code_guess', key);
  throw AppError.notFound(NOT_FOUND);
}

/** The person's answer (RFC 8628 section 3.3), once: a decided request is no longer found by its code. */
export async function decideDeviceAuthorization(
  em: EntityManager,
  row: DeviceAuthorizationRow,
  approve: boolean,
  login: { userId: string; sessionId: string },
): Promise<void> {
  const decided = await em.nativeUpdate(
    DeviceAuthorization,
    { id: row.id, decision: null },
    approve ? { decision: 'approved', userId: login.userId, sessionId: login.sessionId } : { decision: 'denied' },
  );
  if (decided !== 1) throw AppError.notFound(NOT_FOUND);
}

export interface PollInput {
  deviceCode: string;
  /** The authenticated client; it must be the one the request was opened for. */
  clientId: string;
  /** True for a registered client (its tokens carry its client_id as aud and azp). */
  registered: boolean;
  /** RFC 9449 section 5: the key of the poll's DPoP proof; the access token is bound to it (../dpop/). */
  dpopJkt?: string;
  /** A client without credentials: its refresh token is bound to that key too. */
  publicClient?: boolean;
}

/**
 * One poll of the device access token request (RFC 8628 section 3.4): the tokens of an approved request,
 * once; otherwise the section 3.5 error that says why not. Pass a storage fork outside any transaction:
 * the poll time and the consumption must commit even when the answer is an error.
 */
export async function pollDeviceAuthorization(ctx: OpContext, em: EntityManager, input: PollInput): Promise<{ tokens: TokenSet; scope: string[] }> {
  const now = ctx.deps.clock.now();
  const row = await em.findOne(DeviceAuthorization, { id: sha256Hex(input.deviceCode) });
  if (!row) throw new OAuthError(400, 'invalid_grant', 'invalid device_code');
  if (row.clientId !== input.clientId) throw new OAuthError(400, 'invalid_grant', 'device_code was issued to another client');
  if (row.usedAt) return refuseReuse(ctx, em, row);
  if (row.expiresAt.getTime() <= now.getTime()) throw new OAuthError(400, 'expired_token', 'device_code has expired: start again');
  if (row.decision === 'denied') throw new OAuthError(400, 'access_denied', 'the user denied the request');
  if (row.decision === 'approved') return redeem(ctx, em, row, input);
  const tooSoon = row.lastPolledAt != null && now.getTime() - row.lastPolledAt.getTime() < row.intervalSeconds * 1000;
  const interval = tooSoon ? row.intervalSeconds + SLOW_DOWN_SECONDS : row.intervalSeconds;
  await em.nativeUpdate(DeviceAuthorization, { id: row.id }, { lastPolledAt: now, intervalSeconds: interval });
  if (tooSoon) throw new OAuthError(400, 'slow_down', `polling too fast: wait at least ${interval} seconds between requests`);
  throw new OAuthError(400, 'authorization_pending', 'the user has not yet approved the request');
}

/**
 * A device_code presented again after its redemption: someone else may hold a copy, so the session the
 * redemption opened ends with every token issued on it, refresh tokens included (RFC 6749 section 4.1.2, as
 * authorization-codes.ts does for a code; RFC 8628 section 5.2 keeps the device code as secret as a code).
 * It runs before the expiry check: a copy replayed late still ends what the first redemption issued.
 */
async function refuseReuse(ctx: OpContext, em: EntityManager, row: DeviceAuthorizationRow): Promise<never> {
  if (row.issuedSessionId) await revokeSession(em, ctx.deps.clock, row.issuedSessionId);
  throw new OAuthError(400, 'invalid_grant', 'device_code has already been used');
}

/**
 * Tokens minted like an authorization code's (authorization-codes.ts), on a session of their own: opened for
 * the device from the approving browser session (same user, roles, login method and auth time, so the same
 * absolute end), so that signing out of the browser does not sign the device out, and the person can end the
 * device's session apart from the others (user_sessions, revoke_session).
 */
async function redeem(ctx: OpContext, em: EntityManager, row: DeviceAuthorizationRow, input: PollInput): Promise<{ tokens: TokenSet; scope: string[] }> {
  const { registered, dpopJkt } = input;
  const now = ctx.deps.clock.now();
  return em.transactional(async (tx) => {
    // The conditional update makes one redemption win, even when two polls race.
    if ((await tx.nativeUpdate(DeviceAuthorization, { id: row.id, usedAt: null }, { usedAt: now })) !== 1) {
      throw new OAuthError(400, 'invalid_grant', 'device_code has already been used');
    }
    const approving = row.sessionId ? await findSession(tx, row.sessionId) : null;
    if (!approving || approving.revokedAt != null) throw new OAuthError(400, 'invalid_grant', 'the session that approved this request has ended');
    const user = await findActiveUser(tx, row.userId!);
    if (!user) throw new OAuthError(400, 'invalid_grant', 'user access has been revoked');
    const { session } = openSessionFromApproval(tx, now, {
      userId: user.id,
      roles: approving.roles,
      loginMethod: approving.loginMethod,
      authTime: authTimeOf(approving),
    }, row.scope);
    await tx.nativeUpdate(DeviceAuthorization, { id: row.id }, { issuedSessionId: session.id });
    const tokens = await mintTokens(ctx, tx, {
      user,
      session,
      scope: row.scope,
      nonce: '',
      familyId: row.scope.includes(OFFLINE_ACCESS) ? randomToken(24) : null,
      ...(registered ? { clientId: row.clientId } : {}),
      ...(dpopJkt ? { dpopJkt } : {}),
      ...(dpopJkt && input.publicClient ? { refreshJkt: dpopJkt } : {}),
    });
    // OpenID Connect Back-Channel Logout 1.0 §2.7: ending the device's session tells the client.
    if (registered) await rememberSessionClient(tx, now, session.id, row.clientId);
    return { tokens, scope: row.scope };
  });
}
