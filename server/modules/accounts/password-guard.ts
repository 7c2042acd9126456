/**
 * Every place that checks a user's password against a guess shares one failure budget per account (the
 * 'login_failure' bucket, OWASP ASVS 2.2.1): login, and update_profile's old_password, which someone holding
 * a stolen access token could otherwise use to guess the password without the login lockout noticing, and
 * delete_my_account's password.
 */
import type { HandlerContext } from '../../ops/define.ts';
import { AppError } from '../../kernel/errors.ts';
import { normaliseEmail, normalisePhoneNumber, type UserRow } from '../users/index.ts';
import { verifyPassword } from '../passwords/index.ts';
import { firebaseKeyResolver } from './import/import-hash-keys.ts';

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

/**
 * A signed-in person re-entering their password (update_profile's old_password, delete_my_account): counted
 * on the account's login failure budget first, so that a stolen token gains no password oracle, checked as
 * login checks it (an imported hash included: docs/importing-users.md), and the budget cleared on success.
 */
export async function checkCurrentPassword(ctx: HandlerContext, user: UserRow, password: string, wrongMessage: string): Promise<void> {
  const keys = lockoutKeysOf(user);
  try {
    for (const key of keys) await ctx.deps.limits.consume('login_failure', key);
  } catch (err) {
    if (!(err instanceof AppError) || err.kind !== 'too_many_requests') throw err;
    throw AppError.tooManyRequests('too many wrong passwords for this account: try again later', err.retryAfterSeconds ?? 60);
  }
  if (!user.passwordHash || !(await verifyPassword(user.passwordHash, password, firebaseKeyResolver(ctx.em, ctx.deps.sealer)))) {
    throw AppError.invalid(wrongMessage);
  }
  for (const key of keys) await ctx.deps.limits.reset('login_failure', key);
}
