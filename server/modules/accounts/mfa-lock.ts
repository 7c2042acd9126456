/**
 * lock_mfa (docs/identity-boundary.md): a person at a sign-in's
 * challenge reports their only second factor(s) lost, and every way into the account stops until an
 * administrator's update_user with reset_mfa (the sign-in policy refuses a locked account, a passkey
 * included; sign-in-policy.ts).
 *
 * The challenge's `mfa` cookie proves only the first factor, and a leaked password must not be enough to
 * shut the owner out. So the lock is confirmed by a second proof (NIST SP 800-63B 6.1.2.3: replacing a lost
 * authenticator needs a proof other than the remaining factor): a single-use code sent to the account's own
 * proven email address, or else its proven phone number. The first call sends the code; the call with `otp`
 * locks. An account with no proven address or number cannot confirm a lock and is told to ask an
 * administrator. Refused as before while an email or SMS code factor can stand in for the lost one.
 *
 * The lock also ends every session and token of the account: whoever holds the lost device may hold a
 * session of it too.
 */
import { defineOperation, type HandlerContext } from '../../ops/define.ts';
import { MessageResponse, s, type Static } from '../../ops/schema.ts';
import { AppError } from '../../kernel/errors.ts';
import { mfaCookie } from '../../kernel/cookies.ts';
import { emailProven, findUserById, phoneProven, type UserRow } from '../users/index.ts';
import { callerChallenge, dropChallenges, MFA_SESSION_REFUSAL } from '../mfa/index.ts';
import { consumeOtp } from '../verification/index.ts';
import { enqueueMessage, MFA_LOCK_FLOW, type Channel } from '../messages/index.ts';
import { emailConfigurationProblem } from '../email/index.ts';
import { missingSmsFlags } from '../sms/index.ts';
import { revokeAllForUser } from '../tokens/index.ts';
import { audit } from '../audit/index.ts';
import { codeFactorsOf } from './mfa-codes.ts';

const optionalString = () => s.optional(s.string());

export const LockMfaRequest = s.object('LockMfaRequest', {
  email: optionalString(),
  phone_number: optionalString(),
  state: optionalString(),
  /** The code sent by the first call, which confirms the lock. */
  otp: optionalString(),
});

export const LOCK_CODE_SENT_MESSAGE = 'To confirm the lock, enter the code sent to your email address or phone number';
export const LOCKED_MESSAGE = 'Multi-factor authentication locked: an administrator must reset it before the next sign-in';
export const NO_PROVEN_CONTACT_MESSAGE =
  'this account has no proven email address or phone number to confirm the lock with: ask an administrator to revoke access to the account or reset its second factor';

/** Where the confirmation goes: the proven email address first, else the proven phone number. */
function confirmationChannel(ctx: HandlerContext, user: UserRow): { channel: Channel; to: string } | undefined {
  const { config } = ctx.deps;
  if (user.email && emailProven(user) && !emailConfigurationProblem(config)) return { channel: 'email', to: user.email };
  if (user.phoneNumber && phoneProven(user) && missingSmsFlags(config).length === 0) return { channel: 'sms', to: user.phoneNumber };
  return undefined;
}

async function lock(ctx: HandlerContext, user: UserRow): Promise<void> {
  const { clock } = ctx.deps;
  const now = clock.now();
  user.mfaLockedAt = now;
  user.updatedAt = now;
  await dropChallenges(ctx.em, user.id);
  await revokeAllForUser(ctx.em, clock, user.id);
  await audit(ctx, { action: 'user.mfa_locked', actor: { type: 'user', id: user.id, email: user.email }, resourceType: 'user', resourceId: user.id });
  await ctx.em.flush();
}

export const lockMfaOp = defineOperation({
  name: 'lock_mfa',
  admin: false,
  kind: 'mutation',
  description:
    "Reports the caller's only second factor(s) lost: sends a code to the account's proven email or phone, and with that code locks every sign-in until an administrator resets MFA (refused when an email or SMS code factor can stand in)",
  input: LockMfaRequest,
  output: MessageResponse,
  auth: 'mfa_cookie',
  // A wrong code is counted (five attempts); a transaction rolled back by the refusal would undo the count.
  transaction: false,
  handler: async (input: Static<typeof LockMfaRequest>, ctx) => {
    if (ctx.caller.kind !== 'mfa') throw AppError.unauthenticated(MFA_SESSION_REFUSAL);
    const challenge = await callerChallenge(ctx.em, ctx.deps, ctx.caller.challengeId);
    if (challenge.stage !== 'verify') throw AppError.precondition('no second factor is set up for this account');
    const user = await findUserById(ctx.em, challenge.userId);
    if (!user) throw AppError.unauthenticated(MFA_SESSION_REFUSAL);
    if ((await codeFactorsOf(ctx, challenge, user)).length > 0) {
      throw AppError.precondition('a code by email or SMS can be used instead: ask for one with resend_otp');
    }
    const destination = confirmationChannel(ctx, user);
    if (!destination) throw AppError.precondition(NO_PROVEN_CONTACT_MESSAGE);
    if (!input.otp) {
      await ctx.em.transactional((em) => enqueueMessage({ ...ctx, em }, { ...destination, flow: MFA_LOCK_FLOW, userId: user.id }));
      return { message: LOCK_CODE_SENT_MESSAGE };
    }
    await consumeOtp(ctx.em, ctx.deps, { userId: user.id, purpose: MFA_LOCK_FLOW, code: input.otp.trim() });
    await ctx.em.transactional((em) => lock({ ...ctx, em }, em.merge(user)));
    ctx.effects.setCookie(mfaCookie(ctx.deps.config, '', 0));
    return { message: LOCKED_MESSAGE };
  },
});
