/**
 * Second factors (docs/api-overview.md#states-and-transitions, docs/operations.md, docs/api-overview.md#authentication): the TOTP factor and its recovery codes, and the MFA
 * challenge of a login waiting for its second factor. Its operations live with the account flows they are
 * steps of (accounts/mfa-setup.ops.ts, accounts/mfa-gate.ts, verify_otp in accounts/otp.ops.ts).
 */
import { defineModule, defineWorker } from '../manifest.ts';
import type { RetentionOptions, RetentionWorker } from '../audit/index.ts';
import { createMfaChallengeSweepWorker } from './challenge-sweep.ts';
import { MfaFactor } from './mfa-factor.entity.ts';
import { RecoveryCode } from './recovery-code.entity.ts';
import { MfaChallenge } from './mfa-challenge.entity.ts';
import { subscription } from '../../kernel/hooks.ts';
import { onAdminMfaReset } from '../users/index.ts';
import { resetMfa } from './reset-mfa.ts';

export { MfaFactor, type MfaFactorRow } from './mfa-factor.entity.ts';
export { RecoveryCode, type RecoveryCodeRow } from './recovery-code.entity.ts';
export { MfaChallenge, type MfaChallengeRow } from './mfa-challenge.entity.ts';
export { beginTotpEnrolment, checkTotpFactor, useRecoveryCode, type TotpEnrolment } from './totp-factor.ts';
export { totpUri } from './totp.ts';
export { totpQrImage } from './totp-qr-image.ts';
export { looksLikeRecoveryCode } from './recovery-codes.ts';
export { addEnrolledMethod, removeEnrolledMethod, hasEnrolledMethod, type MfaMethod } from './enrolled-methods.ts';
export { openChallenge, liveChallenge, callerChallenge, closeChallenge, dropChallenges, spendAttempt, type NewChallenge, type ChallengeStage, MAX_CHALLENGE_ATTEMPTS, MFA_SESSION_REFUSAL, INVALID_MFA_CODE } from './mfa-challenge.ts';
export { totpEnabled, emailOtpEnabled, smsOtpEnabled, webauthnEnabled, enabledMfaMethods } from './mfa-flags.ts';
export { beginOtpEnrolment, confirmOtpFactor, pendingOtpMethods, factorOf, MFA_OTP_PURPOSE, MFA_OTP_TTL_SECONDS, type OtpMethod } from './otp-factor.ts';
export { purgeMfaRecords, resetMfa, onMfaReset } from './reset-mfa.ts';
export { mfaCookieAuthenticator, mfaOfferAuthenticator, mfaCookiePresented } from './mfa-authenticator.ts';

export const mfaModule = defineModule({
  name: 'mfa',
  entities: [MfaFactor, RecoveryCode, MfaChallenge],
  // An admin's update_user with reset_mfa (modules/users).
  hooks: [subscription(onAdminMfaReset, resetMfa)],
  workers: [defineWorker<RetentionWorker, RetentionOptions>({ name: 'mfa-challenge-sweep', create: createMfaChallengeSweepWorker })],
});
