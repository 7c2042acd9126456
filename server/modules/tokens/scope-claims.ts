/**
 * The claims about the user that an OpenID scope grants (OpenID Connect Core section 5.4), for everything
 * this server tells a registered client: its ID token (mint-tokens.ts) and /userinfo. One rule, so the two
 * never disagree and a client learns nothing it was not granted.
 *
 * - profile: given_name, family_name, middle_name, nickname, preferred_username, gender, birthdate, picture,
 *   updated_at (the ones this server stores; name, profile, website, zoneinfo and locale it has not);
 * - email: email and email_verified; phone: phone_number and phone_number_verified. The verified flags are
 *   the proof of the address (users/address-proof.ts), which relying parties link accounts by;
 * - address: no postal address is stored, so nothing.
 *
 * A claim without a value is omitted, not null (section 5.3.2). preferred_username is the stored one only:
 * the public User falls back to the email address, which would hand the address to a client that was not
 * granted `email`. Nothing of this server's own User object (app_data, signup methods, MFA state) is a
 * claim of any scope: only the instance client, the first-party application, reads those (in its ID token).
 */
import type { UserRow } from '../users/index.ts';
import { unixSeconds, emailProven, phoneProven } from '../users/index.ts';

type ScopedUser = Pick<UserRow,
  'givenName' | 'familyName' | 'middleName' | 'nickname' | 'preferredUsername' | 'gender' | 'birthdate' | 'picture' | 'updatedAt'
  | 'email' | 'emailVerifiedAt' | 'emailVerifiedVia' | 'phoneNumber' | 'phoneNumberVerifiedAt'>;

/** A scope as tokens carry it (an array; a space-separated string is read too) as a list. */
export function scopeList(scope: unknown): string[] {
  if (Array.isArray(scope)) return scope.filter((s): s is string => typeof s === 'string');
  return typeof scope === 'string' ? scope.split(/\s+/).filter(Boolean) : [];
}

/** The standard claims `scope` grants about `user`, each only when it has a value. */
export function claimsForScope(user: ScopedUser, scope: readonly string[]): Record<string, unknown> {
  const granted = new Set(scope);
  const claims: Record<string, unknown> = {};
  const put = (name: string, value: unknown) => {
    if (value !== undefined && value !== null && value !== '') claims[name] = value;
  };
  if (granted.has('profile')) {
    put('given_name', user.givenName);
    put('family_name', user.familyName);
    put('middle_name', user.middleName);
    put('nickname', user.nickname);
    put('preferred_username', user.preferredUsername);
    put('gender', user.gender);
    put('birthdate', user.birthdate);
    put('picture', user.picture);
    put('updated_at', unixSeconds(user.updatedAt));
  }
  if (granted.has('email') && user.email) {
    claims.email = user.email;
    claims.email_verified = emailProven(user);
  }
  if (granted.has('phone') && user.phoneNumber) {
    claims.phone_number = user.phoneNumber;
    claims.phone_number_verified = phoneProven(user);
  }
  return claims;
}
