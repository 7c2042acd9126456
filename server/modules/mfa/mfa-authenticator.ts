/**
 * The `mfa_cookie` and `user_or_mfa_cookie` auth kinds (docs/api-overview.md#authentication, "Cookie mfa": the short-lived
 * session of a sign-in waiting for its second factor; docs/operations.md: the MFA setup and WebAuthn registration
 * operations take "auth or MFA cookie").
 *
 * `user_or_mfa_cookie` takes the cookie only while a first-time offer is pending (stage `offer`). During a
 * challenge of an enrolled factor (stage `verify`) the cookie proves the password alone; accepting it there
 * would let whoever holds the password enrol a factor of their own and pass the gate with it.
 */
import { AppError } from '../../kernel/errors.ts';
import { MFA_COOKIE } from '../../kernel/cookies.ts';
import type { Caller, OpContext } from '../../kernel/context.ts';
import type { Authenticator } from '../../kernel/authenticators.ts';
import { liveChallenge, MFA_SESSION_REFUSAL, type ChallengeStage } from './mfa-challenge.ts';

function mfaCookieOf(stage?: ChallengeStage): Authenticator {
  return async (ctx): Promise<Caller> => {
    const cookie = ctx.credentials.cookies[MFA_COOKIE];
    if (!cookie) throw AppError.unauthenticated(MFA_SESSION_REFUSAL);
    const challenge = await liveChallenge(ctx.deps.storage.fork(), ctx.deps, cookie, stage);
    return { kind: 'mfa', userId: challenge.userId, challengeId: challenge.id, stage: challenge.stage as ChallengeStage };
  };
}

/** Any live challenge's cookie. */
export const mfaCookieAuthenticator: Authenticator = mfaCookieOf();

/** A pending first-time offer's cookie only. */
export const mfaOfferAuthenticator: Authenticator = mfaCookieOf('offer');

/** Whether the request carries an `mfa` cookie at all, valid or not. */
export function mfaCookiePresented(ctx: OpContext): boolean {
  return Boolean(ctx.credentials.cookies[MFA_COOKIE]);
}
