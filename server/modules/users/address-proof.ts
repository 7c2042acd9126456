/**
 * One notion of "this address was proven": whether this server may stand behind an account's email address
 * or phone number as belonging to the account's holder. It answers for every use that relies on it:
 *
 * - linking an existing account to a social sign-in, an organization's SSO sign-in or SCIM provisioning
 *   (pre-account hijacking: whoever registered someone else's address first must not receive the owner's
 *   later federated identity; OWASP ASVS 2.5.x, OpenID Connect Core 5.7);
 * - every outward `email_verified` / `phone_number_verified` claim (ID token, /userinfo; OpenID Connect
 *   Core 5.1), which relying parties use to link accounts in their turn;
 * - every SAML NameID or attribute that carries an address (saml-idp/assertion-subject.ts).
 *
 * An address is proven when this server proved it (a link or code it sent there, or a reset completed with
 * one), an administrator vouched for it, or an upstream identity provider trusted for that address asserted
 * it. The public User object's `email_verified` / `phone_number_verified` keep their released meaning
 * (verified-at is set) for SDK compatibility (user.schema.ts); nothing else reads them as proof.
 */
import type { UserRow } from './user.entity.ts';

export const EMAIL_PROOFS = [
  /** A single-use link mailed to the address was followed (verify_email: signup, magic link, email change, invitation). */
  'link',
  /** A password reset completed with the token mailed to the address. */
  'password_reset',
  /** An administrator set email_verified with update_user. */
  'admin',
  /** A social sign-in upstream asserted the address verified (email_verified; OpenID Connect Core 5.1). */
  'provider',
  /**
   * An organization's identity provider (OIDC or SAML) asserted the address in a domain the organization
   * verified (org-domains): the organization proved it owns the domain, so its IdP speaks for its mailboxes.
   */
  'organization',
  /** Marked verified without any proof (an email change while --enable-email-verification is off). */
  'unproven',
] as const;

export type EmailProof = (typeof EMAIL_PROOFS)[number];

/**
 * How a phone number comes to count as verified. Every one is a proof: no flow marks a number verified
 * without one (an email-style 'unproven' mark does not exist for phones), so the verified-at time alone
 * answers phoneProven and no column records the kind.
 */
export const PHONE_PROOFS = [
  /** A code texted to the number was entered (verify_otp, bound to the number it was sent to). */
  'code',
  /** A password reset completed with a code texted to the number. */
  'password_reset',
  /** An administrator set phone_number_verified with update_user. */
  'admin',
] as const;

export type PhoneProof = (typeof PHONE_PROOFS)[number];

/** Proofs of control over the mailbox (or an administrator, or a trusted IdP, vouching for it). */
const PROVING: ReadonlySet<string> = new Set<EmailProof>(['link', 'password_reset', 'admin', 'provider', 'organization']);

type EmailState = Pick<UserRow, 'email' | 'emailVerifiedAt' | 'emailVerifiedVia'>;
type PhoneState = Pick<UserRow, 'phoneNumber' | 'phoneNumberVerifiedAt'>;

/**
 * Marks the email verified and records how. A weaker record never replaces a proof: a proven address
 * that is merely marked again stays proven; an unproven one is upgraded by a real proof.
 */
export function markEmailVerified(user: EmailState, via: EmailProof, now: Date): void {
  user.emailVerifiedAt ??= now;
  if (via === 'unproven' && user.emailVerifiedVia && PROVING.has(user.emailVerifiedVia)) return;
  user.emailVerifiedVia = via;
}

/** Clears verification (a new address, or an administrator unsetting email_verified). */
export function clearEmailVerification(user: EmailState): void {
  user.emailVerifiedAt = null;
  user.emailVerifiedVia = null;
}

/**
 * Whether the account's email address was proven. Accounts verified before emailVerifiedVia existed have
 * no record of how, so they do not count (the holder proves the address again with any emailed link,
 * which records `link`).
 */
export function emailProven(user: EmailState): boolean {
  return Boolean(user.email) && user.emailVerifiedAt != null && user.emailVerifiedVia != null && PROVING.has(user.emailVerifiedVia);
}

/** The name social sign-in has used; the same function. */
export const emailProvenForLinking = emailProven;

/** Marks the phone number verified; only a proof may call it (`via` names which, for the reader). */
export function markPhoneVerified(user: PhoneState, _via: PhoneProof, now: Date): void {
  user.phoneNumberVerifiedAt ??= now;
}

/** Clears verification (a new number, or an administrator unsetting phone_number_verified). */
export function clearPhoneVerification(user: PhoneState): void {
  user.phoneNumberVerifiedAt = null;
}

/** Whether the account's phone number was proven (PHONE_PROOFS: every verified mark is a proof). */
export function phoneProven(user: PhoneState): boolean {
  return Boolean(user.phoneNumber) && user.phoneNumberVerifiedAt != null;
}

/**
 * The verified flags this server asserts to others (ID token, /userinfo; OpenID Connect Core 5.1): the
 * proof, not the released API's verified-at flags.
 */
export function provenAddressClaims(user: EmailState & PhoneState): { email_verified: boolean; phone_number_verified: boolean } {
  return { email_verified: emailProven(user), phone_number_verified: phoneProven(user) };
}
