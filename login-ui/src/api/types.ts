/** Shapes of the answers the login UI selects (reference.md "Types"). */
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
}

export interface Meta extends SocialFlags {
  is_sign_up_enabled: boolean;
  is_basic_authentication_enabled: boolean;
  is_mobile_basic_authentication_enabled: boolean;
  is_strong_password_enabled: boolean;
  is_magic_link_login_enabled: boolean;
  is_email_verification_enabled: boolean;
  is_phone_verification_enabled: boolean;
}

/** AuthResponse as selected: a user, and the phone-code screen flag when no session was issued yet. */
export interface AuthAnswer {
  message: string;
  should_show_mobile_otp_screen?: boolean | null;
  user?: SessionUser | null;
}

export interface MessageAnswer {
  message: string;
}

/** How a person identifies: exactly one of the two (LoginRequest, SignUpRequest, ResendOTPRequest). */
export type Identifier = { email: string; phone_number?: undefined } | { phone_number: string; email?: undefined };
