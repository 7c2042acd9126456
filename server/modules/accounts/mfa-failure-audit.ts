/**
 * Failed second factors in the audit log (OWASP ASVS 7.1.3: log failed
 * authentication attempts, second factors included): a wrong authenticator-app, recovery, emailed or texted
 * code, and an attempt refused by the hourly allowance of wrong codes, each leave `user.mfa_failed` with the
 * method, the stage (a sign-in's challenge, or confirming a factor being added) and the reason. Never the
 * code. Written at once (auditNow): the refusal that follows must not take the entry with it.
 */
import { AppError } from '../../kernel/errors.ts';
import type { HandlerContext } from '../../ops/define.ts';
import { auditNow } from '../audit/index.ts';

/** `sign_in`: the challenge of a login; `enrolment`: the first code of a factor being added. */
export type MfaStage = 'sign_in' | 'enrolment';

export interface MfaAttempt {
  userId: string;
  /** totp, recovery_code, email_otp or sms_otp; `unknown` when no factor of the user matched the request. */
  method: string;
  stage: MfaStage;
}

type Check = () => Promise<boolean>;

/**
 * Runs one counted second-factor check. `attempt` passes its code check through `judged`, which notes
 * whether the code was wrong; a wrong code, or an attempt the allowance refused, is audited before the
 * refusal is thrown on. Other refusals (no live challenge) say nothing about a code and are not audited here.
 */
export async function auditedAttempt(ctx: HandlerContext, who: MfaAttempt, attempt: (judged: (check: Check) => Check) => Promise<void>): Promise<void> {
  let wrong = false;
  const judged = (check: Check): Check => async () => {
    const right = await check();
    wrong = !right;
    return right;
  };
  try {
    await attempt(judged);
  } catch (err) {
    const limited = err instanceof AppError && err.kind === 'too_many_requests';
    if (wrong || limited) {
      await auditNow(ctx, {
        action: 'user.mfa_failed',
        actor: { type: 'user', id: who.userId },
        resourceType: 'user',
        resourceId: who.userId,
        metadata: { mfa_method: who.method, stage: who.stage, reason: wrong ? 'wrong_code' : 'rate_limited' },
      });
    }
    throw err;
  }
}
