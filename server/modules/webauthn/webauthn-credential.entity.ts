import { defineEntity, p } from '@mikro-orm/core';

/**
 * One passkey of a user (W3C WebAuthn Level 3 section 7.1 step 27 "register the new credential": its id,
 * public key, sign count, transports, and the backup flags of section 6.1.3).
 *
 * The credential id comes from the authenticator and may be up to 1023 bytes (section 5.8.3), too long for a
 * unique index on MariaDB's utf8mb4 keys, so uniqueness is held by `credentialKey`, the SHA-256 of the
 * base64url id: a credential id can be registered once, to one account (section 7.1 step 26), whatever the
 * database. `publicKey` is the COSE key (base64url); it is not secret. `signCount` is a 32-bit unsigned
 * counter, hence the 64-bit column.
 */
export const WebauthnCredential = defineEntity({
  name: 'WebauthnCredential',
  tableName: 'webauthn_credentials',
  properties: {
    id: p.string().primary().length(36),
    userId: p.string().length(36).index(),
    credentialKey: p.string().length(64).unique(),
    credentialId: p.text(),
    publicKey: p.text(),
    signCount: p.bigint('number'),
    transports: p.json<string[]>(),
    deviceType: p.string().length(16),
    backedUp: p.boolean(),
    name: p.string().length(64),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
    lastUsedAt: p.datetime().nullable(),
  },
});

export type WebauthnCredentialRow = InstanceType<typeof WebauthnCredential.class>;
