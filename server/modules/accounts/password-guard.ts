/**
 * Every place that checks a user's password against a guess shares one failure budget per account (the
 * 'login_failure' bucket, OWASP ASVS 2.2.1): login, and update_profile's old_password, which someone holding
 * a stolen access token could otherwise use to guess the password without the login lockout noticing.
 */
import { normaliseEmail, normalisePhoneNumber } from '../users/index.ts';

/** The lockout key of an account named by email or phone, whether or not such an account exists. */
export function lockoutKey(contact: { email?: string | null; phone_number?: string | null }): string {
  return contact.email ? `email:${normaliseEmail(contact.email)}` : `phone:${normalisePhoneNumber(contact.phone_number!)}`;
}

/** Every key a login could name this account by (its email and its phone number). */
export function lockoutKeysOf(user: { email?: string | null; phoneNumber?: string | null }): string[] {
  const keys: string[] = [];
  if (user.email) keys.push(lockoutKey({ email: user.email }));
  if (user.phoneNumber) keys.push(lockoutKey({ phone_number: user.phoneNumber }));
  return keys;
}
