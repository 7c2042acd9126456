import { defineEntity, p } from '@mikro-orm/core';

/**
 * A user account (docs/api-overview.md#resources-and-fields, "User"). Email and phone uniqueness is the service's job
 * (docs/api-overview.md#versioning): no UNIQUE index here; identity-claim.entity.ts serialises it. Stored but never returned:
 * the password hash, verified-at timestamps and how the email was verified, the SCIM external id and the deactivation (soft delete) time.
 */
export const User = defineEntity({
  name: 'User',
  tableName: 'users',
  properties: {
    id: p.string().primary().length(36),
    email: p.string().length(255).nullable().index(),
    emailVerifiedAt: p.datetime().nullable(),
    /**
     * How the email came to count as verified (users/address-proof.ts EmailProof): link, password_reset,
     * admin, provider, organization or unproven. Never returned by the API. Null: not verified, or verified
     * before this column existed.
     */
    emailVerifiedVia: p.string().length(32).nullable(),
    phoneNumber: p.string().length(32).nullable().index(),
    /** Set only by a proof (users/address-proof.ts PHONE_PROOFS). */
    phoneNumberVerifiedAt: p.datetime().nullable(),
    passwordHash: p.string().length(255).nullable(),
    /**
     * Set when an administrator chose the password (create_user with an initial password): a password
     * sign-in is refused until the holder replaces it (change_initial_password), so a password someone else
     * knows never opens a session (OWASP ASVS 2.1.x, NIST SP 800-63B 5.1.1.2). Cleared by any password
     * the holder sets (change_initial_password, reset_password, update_profile).
     */
    passwordChangeRequiredAt: p.datetime().nullable(),
    /** Comma-joined: basic_auth, mobile_basic_auth, magic_link_login, google, ... */
    signupMethods: p.string().length(255),
    givenName: p.string().length(255).nullable(),
    familyName: p.string().length(255).nullable(),
    middleName: p.string().length(255).nullable(),
    nickname: p.string().length(255).nullable(),
    preferredUsername: p.string().length(255).nullable(),
    gender: p.string().length(64).nullable(),
    birthdate: p.string().length(64).nullable(),
    picture: p.text().nullable(),
    roles: p.json<string[]>(),
    appData: p.json<Record<string, unknown>>().nullable(),
    isMultiFactorAuthEnabled: p.boolean().nullable(),
    /**
     * The verified second factors (the User of docs/api-overview.md#resources-and-fields `enrolled_mfa_methods`), kept on the row by the MFA
     * module when a factor is verified or removed, so that the password step of a login knows whether to
     * ask for one without another query.
     */
    enrolledMfaMethods: p.json<string[]>().nullable(),
    /** When the user declined the first-time MFA offer (skip_mfa_setup; docs/api-overview.md#states-and-transitions). */
    hasSkippedMfaSetupAt: p.datetime().nullable(),
    /**
     * When the user reported their only factor lost (lock_mfa; docs/api-overview.md#states-and-transitions): no sign-in until an
     * admin's update_user with reset_mfa clears it.
     */
    mfaLockedAt: p.datetime().nullable(),
    revokedAt: p.datetime().nullable(),
    /**
     * Who revoked access: 'admin' (revoke_access) or 'scim' (an organization's provider, `active:
     * false` or DELETE). SCIM may lift only its own revocation; enable_access lifts either. Null with
     * revokedAt set: revoked before this column existed, and not recognisably by SCIM (storage migration
     * 0002): only the administrator lifts it.
     */
    revokedBy: p.string().length(16).nullable(),
    /** Soft delete by deactivate_account (docs/api-overview.md#states-and-transitions). */
    deactivatedAt: p.datetime().nullable(),
    scimExternalId: p.string().length(255).nullable(),
    /**
     * The account's id in the system it was imported from (import_users `external_id`,
     * docs/importing-users.md#matching): a second import of the same file finds the account by it. Never returned.
     */
    importedId: p.string().length(255).nullable().index(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
  /**
   * The newest-first order of the admin `users` list (docs/operations.md#users) is a range of this index,
   * and a deep page skips its entries, not rows (user-search.ts). The substring search has its own trigram
   * index (server/storage/migrations/0004-users-search-text.ts).
   */
  indexes: [{ name: 'users_created', properties: ['createdAt', 'id'] }],
});

export type UserRow = InstanceType<typeof User.class>;
