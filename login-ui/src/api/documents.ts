/**
 * The public GraphQL operations the login UI calls: the same surface the SDK uses
 * (docs/operations.md), so whatever this page does an integrator can do too. Only user fields are
 * selected from AuthResponse: tokens are never read into script (the session lives in the server's
 * HttpOnly cookies; docs/api-overview.md#authentication).
 */

import { SOCIAL_META_FIELDS } from '../social/social-providers.ts';

/** The fields of the signed-in person the pages show. */
export const USER_FIELDS = `id email phone_number given_name family_name nickname email_verified phone_number_verified
  enrolled_mfa_methods is_multi_factor_auth_enabled`;

/**
 * AuthResponse's flags of a pending second-factor step (the AuthResponse of docs/api-overview.md#resources-and-fields),
 * and the authenticator-app enrolment a first-time offer carries with should_show_totp_screen
 * (the secret is shown on the offer's screen; mfa/offer-enrolment.ts keeps it in memory only).
 */
export const MFA_FLAG_FIELDS = `should_show_email_otp_screen should_show_mobile_otp_screen should_show_totp_screen
  should_offer_webauthn_mfa_verify should_offer_webauthn_mfa_setup should_offer_email_otp_mfa_setup
  should_offer_sms_otp_mfa_setup authenticator_scanner_image authenticator_secret authenticator_recovery_codes`;

export const META = `query Meta { meta {
  is_sign_up_enabled is_basic_authentication_enabled is_mobile_basic_authentication_enabled
  is_strong_password_enabled is_magic_link_login_enabled is_email_verification_enabled is_phone_verification_enabled
  is_multi_factor_auth_enabled is_totp_mfa_enabled is_email_otp_mfa_enabled is_sms_otp_mfa_enabled is_webauthn_enabled
  is_mfa_enforced is_org_discovery_enabled is_email_service_enabled is_sms_service_enabled
  ${SOCIAL_META_FIELDS}
} }`;

export const SESSION = `query Session { session { user { ${USER_FIELDS} } } }`;

export const LOGIN = `mutation Login($params: LoginRequest!) { login(params: $params) {
  message ${MFA_FLAG_FIELDS} user { ${USER_FIELDS} }
} }`;

export const SIGNUP = `mutation Signup($params: SignUpRequest!) { signup(params: $params) {
  message ${MFA_FLAG_FIELDS} user { ${USER_FIELDS} }
} }`;

export const LOGOUT = 'mutation Logout { logout { message } }';

export const MAGIC_LINK_LOGIN = `mutation MagicLink($params: MagicLinkLoginRequest!) { magic_link_login(params: $params) { message } }`;

export const FORGOT_PASSWORD = `mutation ForgotPassword($params: ForgotPasswordRequest!) {
  forgot_password(params: $params) { message should_show_mobile_otp_screen }
}`;

export const RESET_PASSWORD = `mutation ResetPassword($params: ResetPasswordRequest!) { reset_password(params: $params) { message } }`;

export const VERIFY_OTP = `mutation VerifyOtp($params: VerifyOTPRequest!) { verify_otp(params: $params) {
  message ${MFA_FLAG_FIELDS} user { ${USER_FIELDS} }
} }`;

export const RESEND_OTP = `mutation ResendOtp($params: ResendOTPRequest!) { resend_otp(params: $params) { message } }`;

export const RESEND_VERIFY_EMAIL = `mutation ResendVerifyEmail($params: ResendVerifyEmailRequest!) {
  resend_verify_email(params: $params) { message }
}`;
