/**
 * Normalisation and validation of the two login identities (docs/api-overview.md#resources-and-fields; docs/configuration.md#defaults).
 * Emails are compared case-insensitively, so they are stored and looked up trimmed and lower-cased;
 * phone numbers are trimmed and must be at least 10 characters long.
 */
import { AppError } from '../../kernel/errors.ts';

/** RFC 5321 caps a forward path at 254 characters; the users.email column holds 255. */
export const EMAIL_MAX_LENGTH = 254;
export const PHONE_MIN_LENGTH = 10;
/** The users.phone_number column length. */
export const PHONE_MAX_LENGTH = 32;

export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

export function normalisePhoneNumber(phone: string): string {
  return phone.trim();
}

/** One `@` with something on each side and no whitespace: deliverability is proven by verification, not here. */
export function isValidEmail(normalised: string): boolean {
  return normalised.length <= EMAIL_MAX_LENGTH && /^[^\s@]+@[^\s@]+$/.test(normalised);
}

/** Normalises and validates an email, or throws invalid_argument. */
export function requireEmail(email: string): string {
  const normalised = normaliseEmail(email);
  if (!isValidEmail(normalised)) throw AppError.invalid('invalid email address');
  return normalised;
}

/** Normalises and validates a phone number, or throws invalid_argument. */
export function requirePhoneNumber(phone: string): string {
  const normalised = normalisePhoneNumber(phone);
  if (normalised.length < PHONE_MIN_LENGTH) {
    throw AppError.invalid(`phone number must be at least ${PHONE_MIN_LENGTH} characters long`);
  }
  if (normalised.length > PHONE_MAX_LENGTH) throw AppError.invalid(`phone number must be at most ${PHONE_MAX_LENGTH} characters long`);
  return normalised;
}
