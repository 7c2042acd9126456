/** Shapes of the answers the login UI selects (docs/api-overview.md#resources-and-fields). */
import type { SocialFlags } from '../social/social-providers.ts';

export interface SessionUser {
  id: string;
  email?: string | null;
  phone_number?: string | null;
  given_name?: string | null;
  family_name?: string | null;
  nickname?: string | null;
  email_verified: boolean;
  phone_number_verified: boolean;
  /** The verified second factors (the User of docs/api-overview.md#resources-and-fields: totp, webauthn, email_otp, sms_otp). */
  enrolled_mfa_methods?: string[] | null;
  /** The person's own "ask for a second factor at sign-in" switch (update_profile). */
  is_multi_factor_auth_enabled?: boolean | null;
}

export interface Meta extends SocialFlags {
  is_sign_up_enabled: boolean;
  is_basic_authentication_enabled: boolean;
  is_mobile_basic_authentication_enabled: boolean;
  is_strong_password_enabled: boolean;
  is_magic_link_login_enabled: boolean;
  is_email_verification_enabled: boolean;
  is_phone_verification_enabled: boolean;
  /** Second factors this instance offers (the Meta of docs/api-overview.md#resources-and-fields); a screen for one that is off is never shown. */
  is_multi_factor_auth_enabled: boolean;
  is_totp_mfa_enabled: boolean;
  is_email_otp_mfa_enabled: boolean;
  is_sms_otp_mfa_enabled: boolean;
  is_webauthn_enabled: boolean;
  is_mfa_enforced: boolean;
  /** An organization's verified domain can route an email to its SSO: the sign-in asks for the email first. */
  is_org_discovery_enabled: boolean;
  /** Whether mail and texts can be sent (SMTP, the SMS provider): a flow that needs one is offered only then. */
  is_email_service_enabled: boolean;
  is_sms_service_enabled: boolean;
}

/**
 * The flags of AuthResponse that ask for a further step instead of a session (docs/api-overview.md#resources-and-fields): the
 * second-factor challenges and the first-time offer of one. The mfa cookie that goes with them is HttpOnly,
 * so these flags are all the page knows of the pending step.
 */
export interface MfaFlags {
  should_show_email_otp_screen?: boolean | null;
  should_show_mobile_otp_screen?: boolean | null;
  should_show_totp_screen?: boolean | null;
  should_offer_webauthn_mfa_verify?: boolean | null;
  should_offer_webauthn_mfa_setup?: boolean | null;
  should_offer_email_otp_mfa_setup?: boolean | null;
  should_offer_sms_otp_mfa_setup?: boolean | null;
}

/**
 * A new authenticator-app enrolment (the AuthResponse of docs/api-overview.md#resources-and-fields authenticator_*): answered by totp_mfa_setup,
 * and inside a first-time offer (should_show_totp_screen with the secret), as the released SDK expects.
 */
export interface TotpEnrolmentFields {
  /** The otpauth URI as a PNG data URL. */
  authenticator_scanner_image?: string | null;
  authenticator_secret?: string | null;
  /** Ten single-use codes, shown this once. */
  authenticator_recovery_codes?: string[] | null;
}

/** AuthResponse as selected: a user, or the flags of the step still missing when no session was issued. */
export interface AuthAnswer extends MfaFlags, TotpEnrolmentFields {
  message: string;
  user?: SessionUser | null;
}

export interface MessageAnswer {
  message: string;
}

/** How a person identifies: exactly one of the two (LoginRequest, SignUpRequest, ResendOTPRequest). */
export type Identifier = { email: string; phone_number?: undefined } | { phone_number: string; email?: undefined };
