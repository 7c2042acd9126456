import { defineEntity, p } from '@mikro-orm/core';

/**
 * A pending email verification, magic link, email change, password reset or invitation (the
 * VerificationRequest of docs/api-overview.md#resources-and-fields). Only the SHA-256 of the emailed token is stored: a database
 * dump cannot be turned into working links. Single use is `usedAt`; consuming is one conditional update.
 */
export const VerificationRequest = defineEntity({
  name: 'VerificationRequest',
  tableName: 'verification_requests',
  // The expiry sweep (expiry-sweep.ts) reads expired rows oldest first through it.
  indexes: [{ name: 'verification_requests_expiry', properties: ['expiresAt', 'id'] }],
  properties: {
    id: p.string().primary().length(36),
    tokenHash: p.string().length(64).index(),
    /** One of the six email events (email/email-events.ts), or set_password (set-password-token.ts). */
    identifier: p.string().length(32),
    /** Lower-cased and trimmed, as users.email. */
    email: p.string().length(255).index(),
    userId: p.string().length(36).nullable().index(),
    expiresAt: p.datetime(),
    nonce: p.string().length(64),
    redirectUri: p.text().nullable(),
    createdAt: p.datetime().index(),
    updatedAt: p.datetime(),
    usedAt: p.datetime().nullable(),
  },
});

export type VerificationRequestRow = InstanceType<typeof VerificationRequest.class>;
