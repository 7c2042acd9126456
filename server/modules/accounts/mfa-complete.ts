/**
 * The last step of a sign-in that waited at the MFA gate (specification part 3: the access token withheld
 * while a challenge or a first-time offer is pending): once the second factor passed, or the offer was
 * answered by a new factor or declined, the login the first step decided (roles, scope, method, nonce) is
 * issued, with the second factor named in the login method (`amr`, tokens/claims.ts), and the `mfa`
 * cookie is cleared. The challenge row has already been removed by the caller (compare-and-delete in
 * modules/mfa/mfa-challenge.ts), so one cookie completes one sign-in.
 */
import type { Static } from '../../ops/schema.ts';
import type { HandlerContext } from '../../ops/define.ts';
import { AppError } from '../../kernel/errors.ts';
import { mfaCookie } from '../../kernel/cookies.ts';
import { findUserById } from '../users/index.ts';
import { MFA_SESSION_REFUSAL, type MfaChallengeRow } from '../mfa/index.ts';
import type { AuthResponse } from './accounts.schema.ts';
import { completeLogin } from './complete-login.ts';

/**
 * `factor` is what completed the gate: the second factor's name (totp, recovery_code, email_otp, sms_otp,
 * webauthn), or undefined when an offer was declined (the login method then stays the first step's).
 */
export async function finishGatedLogin(ctx: HandlerContext, challenge: MfaChallengeRow, factor: string | undefined, message = 'Logged in successfully'): Promise<Static<typeof AuthResponse>> {
  const { em, deps } = ctx;
  const user = await findUserById(em, challenge.userId);
  if (!user || user.deactivatedAt) throw AppError.unauthenticated(MFA_SESSION_REFUSAL);
  if (user.revokedAt) throw AppError.forbidden('user access has been revoked');
  ctx.effects.setCookie(mfaCookie(deps.config, '', 0));
  const complete = (tx: HandlerContext['em']) =>
    completeLogin({ ...ctx, em: tx }, tx.merge(user), {
      roles: challenge.roles,
      scope: challenge.scope,
      loginMethod: factor ? `${challenge.loginMethod}+${factor}` : challenge.loginMethod,
      nonce: challenge.nonce ?? undefined,
      message,
    });
  return em.isInTransaction() ? complete(em) : em.transactional(complete);
}
