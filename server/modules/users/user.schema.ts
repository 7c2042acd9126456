/**
 * The public User object (docs/api-overview.md#resources-and-fields, "User") and the mapping from a stored row. Everything a
 * protocol returns about a user goes through toPublicUser, so a stored-but-private field (the password
 * hash, verified-at times) cannot leak by being forgotten.
 */
import { s, type Static } from '../../ops/schema.ts';
import type { UserRow } from './user.entity.ts';

export const UserSchema = s.object('User', {
  id: s.string(),
  email: s.optional(s.string()),
  email_verified: s.boolean(),
  signup_methods: s.string(),
  given_name: s.optional(s.string()),
  family_name: s.optional(s.string()),
  middle_name: s.optional(s.string()),
  nickname: s.optional(s.string()),
  preferred_username: s.optional(s.string()),
  gender: s.optional(s.string()),
  birthdate: s.optional(s.string()),
  phone_number: s.optional(s.string()),
  phone_number_verified: s.boolean(),
  picture: s.optional(s.string()),
  roles: s.list(s.string()),
  created_at: s.optional(s.int64()),
  updated_at: s.optional(s.int64()),
  revoked_timestamp: s.optional(s.int64()),
  is_multi_factor_auth_enabled: s.optional(s.boolean()),
  has_skipped_mfa_setup_at: s.optional(s.int64()),
  mfa_locked_at: s.optional(s.int64()),
  enrolled_mfa_methods: s.list(s.string()),
  app_data: s.optional(s.map()),
});

export type PublicUser = Static<typeof UserSchema>;

/** Unix seconds, the timestamp unit of the released API. */
export function unixSeconds(date: Date | null | undefined): number | undefined {
  return date ? Math.floor(date.getTime() / 1000) : undefined;
}

export function toPublicUser(row: UserRow): PublicUser {
  return {
    id: row.id,
    email: row.email ?? undefined,
    // The released meaning (a verified mark), kept for the SDK; what this server asserts to others (ID token,
    // /userinfo, SAML) is the proof instead (address-proof.ts provenAddressClaims).
    email_verified: row.emailVerifiedAt != null,
    signup_methods: row.signupMethods,
    given_name: row.givenName ?? undefined,
    family_name: row.familyName ?? undefined,
    middle_name: row.middleName ?? undefined,
    nickname: row.nickname ?? undefined,
    preferred_username: row.preferredUsername ?? row.email ?? undefined,
    gender: row.gender ?? undefined,
    birthdate: row.birthdate ?? undefined,
    phone_number: row.phoneNumber ?? undefined,
    phone_number_verified: row.phoneNumberVerifiedAt != null,
    picture: row.picture ?? undefined,
    roles: row.roles,
    created_at: unixSeconds(row.createdAt),
    updated_at: unixSeconds(row.updatedAt),
    revoked_timestamp: unixSeconds(row.revokedAt),
    is_multi_factor_auth_enabled: row.isMultiFactorAuthEnabled ?? undefined,
    enrolled_mfa_methods: row.enrolledMfaMethods ?? [],
    has_skipped_mfa_setup_at: unixSeconds(row.hasSkippedMfaSetupAt),
    mfa_locked_at: unixSeconds(row.mfaLockedAt),
    app_data: row.appData ?? undefined,
  };
}
