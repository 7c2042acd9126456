/**
 * How an account's email address came to count as verified. `email_verified` in the API stays what it has
 * always been (SDK compatibility), but only some ways of getting there prove that the account holder
 * controls the mailbox. Linking a social or SSO identity to an existing account by email must rely on
 * proof alone, or whoever registers someone else's address first (with verification off, or by an email
 * change) takes over the victim's later federated sign-in (OWASP ASVS 2.5.x account recovery / pre-account
 * hijacking; OpenID Connect Core 5.7: only a verified email may identify an End-User).
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
  /** Marked verified without any proof (an email change while --enable-email-verification is off). */
  'unproven',
] as const;

export type EmailProof = (typeof EMAIL_PROOFS)[number];

/** Proofs of control over the mailbox (or an administrator vouching for it). */
const PROVING: ReadonlySet<string> = new Set<EmailProof>(['link', 'password_reset', 'admin', 'provider']);

type EmailState = Pick<UserRow, 'email' | 'emailVerifiedAt' | 'emailVerifiedVia'>;

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
 * Whether social or SSO sign-in may link to this account by its email address. Accounts verified before
 * emailVerifiedVia existed have no record of how, so they do not count (the holder proves the address
 * again with any emailed link, which records `link`).
 */
export function emailProvenForLinking(user: EmailState): boolean {
  return Boolean(user.email) && user.emailVerifiedAt != null && user.emailVerifiedVia != null && PROVING.has(user.emailVerifiedVia);
}
