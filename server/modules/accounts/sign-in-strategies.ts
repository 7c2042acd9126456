/**
 * The first factors a person can sign in with, each a strategy in the manner of Ory Kratos's login
 * strategies: what the strategy proved, and what the one sign-in policy (sign-in-policy.ts) must still ask.
 * A new way in (device grant, token exchange) adds a row here and calls signIn; it never opens a session
 * itself (docs/identity-boundary.md).
 */

export const SIGN_IN_STRATEGIES = {
  /** Email and password (login, basic_auth). */
  password: { multiFactor: false, needsVerifiedContact: true, storedPassword: true },
  /** Phone number and password (login, mobile_basic_auth). */
  phone_password: { multiFactor: false, needsVerifiedContact: true, storedPassword: true },
  /** A password signup that needs no verification first: the account was made a moment ago. */
  signup: { multiFactor: false, needsVerifiedContact: false, storedPassword: false },
  /** A single-use link mailed to the address (verify_email: signup, magic link, email change, invitation). */
  email_link: { multiFactor: false, needsVerifiedContact: false, storedPassword: false },
  /** A single-use code texted to the number (verify_otp of phone verification). */
  texted_code: { multiFactor: false, needsVerifiedContact: false, storedPassword: false },
  /** A social provider's word (OpenID Connect or OAuth 2.0 upstream). */
  social: { multiFactor: false, needsVerifiedContact: false, storedPassword: false },
  /** An organization's OpenID Connect or SAML identity provider. */
  org_sso: { multiFactor: false, needsVerifiedContact: false, storedPassword: false },
  /**
   * A passkey with user verification: possession of the authenticator plus the PIN or biometric that
   * unlocked it, already a multi-factor authenticator (NIST SP 800-63B 5.1.9), so the MFA gate is skipped.
   */
  passkey: { multiFactor: true, needsVerifiedContact: true, storedPassword: false },
} as const satisfies Record<string, SignInStrategy>;

export interface SignInStrategy {
  /** The factor is itself multi-factor: the second-factor gate does not apply. */
  readonly multiFactor: boolean;
  /**
   * Whether --enable-email-verification / --enable-phone-verification must have been satisfied first. A
   * strategy that itself proves the address (a link, a code) or relies on another party's word does not.
   */
  readonly needsVerifiedContact: boolean;
  /**
   * The factor is the account's stored password: refused while that password is an administrator's initial
   * one (create_user), which the holder must replace first (change_initial_password).
   */
  readonly storedPassword: boolean;
}

export type SignInStrategyName = keyof typeof SIGN_IN_STRATEGIES;

export const SIGN_IN_STRATEGY_NAMES = Object.keys(SIGN_IN_STRATEGIES) as SignInStrategyName[];
