/**
 * The two ways out of the MFA gate other than a factor (docs/identity-boundary.md; lock_mfa is in
 * mfa-lock.ts):
 * - skip_mfa_setup: a user in a first-time offer declines it; the decline is recorded (the offer is not
 *   made again unless the instance enforces MFA) and the withheld sign-in is issued. Refused under
 *   `--enforce-mfa`, where the offer is the only way in.
 * - lock_mfa: a user at a challenge reports their only factor(s) lost, confirmed by a code to the
 *   account's proven address (mfa-lock.ts).
 */
import { defineOperation, type HandlerContext } from '../../ops/define.ts';
import type { Static } from '../../ops/schema.ts';
import { AppError } from '../../kernel/errors.ts';
import { findUserById } from '../users/index.ts';
import { callerChallenge, closeChallenge, MFA_SESSION_REFUSAL, type MfaChallengeRow } from '../mfa/index.ts';
import { AuthResponse } from './accounts.schema.ts';
import { MfaSetupRequest } from './mfa-setup.ops.ts';
import { finishGatedLogin } from './mfa-complete.ts';
import { lockMfaOp } from './mfa-lock.ts';
import { audit } from '../audit/index.ts';

async function gateChallenge(ctx: HandlerContext, stage: 'verify' | 'offer'): Promise<MfaChallengeRow> {
  if (ctx.caller.kind !== 'mfa') throw AppError.unauthenticated(MFA_SESSION_REFUSAL);
  const challenge = await callerChallenge(ctx.em, ctx.deps, ctx.caller.challengeId);
  if (challenge.stage !== stage) {
    throw AppError.precondition(stage === 'offer' ? 'a second factor is set up for this account: complete the MFA challenge' : 'no second factor is set up for this account');
  }
  return challenge;
}

export const skipMfaSetupOp = defineOperation({
  name: 'skip_mfa_setup',
  admin: false,
  kind: 'mutation',
  description: 'Declines the first-time offer of a second factor and issues the withheld sign-in (refused when MFA is enforced)',
  input: MfaSetupRequest,
  output: AuthResponse,
  auth: 'mfa_cookie',
  handler: async (_input: Static<typeof MfaSetupRequest>, ctx): Promise<Static<typeof AuthResponse>> => {
    if (ctx.deps.config.enforceMfa) throw AppError.precondition('a second factor is required on this instance: set one up to sign in');
    const challenge = await gateChallenge(ctx, 'offer');
    await closeChallenge(ctx.em, challenge);
    const user = await findUserById(ctx.em, challenge.userId);
    if (!user) throw AppError.unauthenticated(MFA_SESSION_REFUSAL);
    user.hasSkippedMfaSetupAt = ctx.deps.clock.now();
    user.updatedAt = ctx.deps.clock.now();
    await audit(ctx, { action: 'user.mfa_setup_skipped', actor: { type: 'user', id: user.id, email: user.email }, resourceType: 'user', resourceId: user.id });
    await ctx.em.flush();
    return finishGatedLogin(ctx, challenge, undefined);
  },
});

export const mfaOfferOperations = [skipMfaSetupOp, lockMfaOp];
