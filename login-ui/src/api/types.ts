/**
 * The login UI's names for the answers it reads, all generated from the operation registry
 * (ui-shared/contract/types.ts). AuthResponse comes without its tokens: the session lives in the server's
 * HttpOnly cookies and no token is ever read into script (docs/api-overview.md#authentication).
 */
import type { Output } from '../../../ui-shared/contract/public-call.ts';

/** AuthResponse as the login UI receives it: a user, or the flags of the step still missing when no session was issued. */
export type AuthAnswer = Output<'login'>;

/** The signed-in person; `enrolled_mfa_methods` are the verified second factors (totp, webauthn, email_otp, sms_otp). */
export type SessionUser = Output<'profile'>;

/** The instance's switches: second factors offered, sign-in methods, and whether mail and texts can be sent. */
export type Meta = Output<'meta'>;

/**
 * The flags of AuthResponse that ask for a further step instead of a session: the second-factor challenges
 * and the first-time offer of one. The mfa cookie that goes with them is HttpOnly, so these flags are all
 * the page knows of the pending step.
 */
export type MfaFlags = Pick<AuthAnswer,
  | 'should_show_email_otp_screen' | 'should_show_mobile_otp_screen' | 'should_show_totp_screen'
  | 'should_offer_webauthn_mfa_verify' | 'should_offer_webauthn_mfa_setup' | 'should_offer_email_otp_mfa_setup'
  | 'should_offer_sms_otp_mfa_setup'>;

/**
 * A new authenticator-app enrolment: answered by totp_mfa_setup, and inside a first-time offer
 * (should_show_totp_screen with the secret): the otpauth URI as a PNG data URL, the secret, and ten
 * single-use recovery codes, shown this once.
 */
export type TotpEnrolmentFields = Pick<AuthAnswer, 'authenticator_scanner_image' | 'authenticator_secret' | 'authenticator_recovery_codes'>;

export type MessageAnswer = Output<'logout'>;

/** How a person identifies: exactly one of the two (LoginRequest, SignUpRequest, ResendOTPRequest). */
export type Identifier = { email: string; phone_number?: undefined } | { phone_number: string; email?: undefined };
