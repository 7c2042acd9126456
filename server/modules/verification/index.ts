/** Verification tokens and one-time codes (docs/operations.md), and the `_verification_requests` admin list. */
import { defineModule, defineWorker } from '../manifest.ts';
import type { RetentionOptions, RetentionWorker } from '../audit/index.ts';
import { createVerificationSweepWorker } from './expiry-sweep.ts';
import { VerificationRequest } from './verification-request.entity.ts';
import { Otp } from './otp.entity.ts';
import { verificationOperations } from './verification.ops.ts';

export { VerificationRequest, type VerificationRequestRow } from './verification-request.entity.ts';
export { Otp, type OtpRow } from './otp.entity.ts';
export {
  createVerification,
  consumeVerification,
  deleteVerificationsFor,
  normaliseEmail,
  DEFAULT_VERIFICATION_TTL_SECONDS,
  INVALID_TOKEN_MESSAGE,
  type NewVerification,
  type VerificationOwner,
} from './verification.service.ts';
export { createSetPasswordToken, SET_PASSWORD_IDENTIFIER, SET_PASSWORD_TTL_SECONDS, type SetPasswordToken } from './set-password-token.ts';
export {
  createOtp,
  consumeOtp,
  deleteOtpsFor,
  MAX_OTP_ATTEMPTS,
  DEFAULT_OTP_TTL_SECONDS,
  OTP_DIGITS,
  INVALID_OTP_MESSAGE,
  OTP_ATTEMPTS_EXHAUSTED_MESSAGE,
  type OtpTarget,
  type NewOtp,
  type OtpCheck,
} from './otp.service.ts';
export {
  verificationRequestsOp,
  verificationOperations,
  VerificationRequestSchema,
  VerificationRequests,
  toPublicVerificationRequest,
} from './verification.ops.ts';
export {
  sendVerificationEmail,
  sendOtpEmail,
  sendOtpSms,
  storeVerificationEmail,
  storeOtpSms,
  storeOtpEmail,
  otpSmsBody,
  type VerificationDeps,
  type VerificationEmail,
  type OtpMessage,
  type SmsDeps,
} from './verification-delivery.ts';

export const verificationModule = defineModule({
  name: 'verification',
  entities: [VerificationRequest, Otp],
  operations: verificationOperations,
  workers: [defineWorker<RetentionWorker, RetentionOptions>({ name: 'verification-sweep', create: createVerificationSweepWorker })],
});
