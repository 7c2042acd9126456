import { defineEntity, p } from '@mikro-orm/core';

/**
 * A WebAuthn ceremony in progress: the challenge the server sent (W3C WebAuthn Level 3 section 13.4.3
 * "Cryptographic Challenges": random, at least 16 bytes, used once) kept server-side, so that every instance
 * on the database agrees and a challenge is spent by whichever request deletes its row first.
 *
 * Only the SHA-256 of the challenge is stored (`id`), so a database reader cannot answer a ceremony with it.
 * A row is bound to its ceremony (`kind`: registration or authentication), to the user when the server knew
 * them (registration always; sign-in when an email named an account), and to the MFA challenge when the
 * ceremony is a step of the login gate (`mfaChallengeId`), and expires with the ceremony's timeout.
 */
export const WebauthnChallenge = defineEntity({
  name: 'WebauthnChallenge',
  tableName: 'webauthn_challenges',
  // The expiry sweep (challenge-sweep.ts) reads expired rows oldest first through it.
  indexes: [{ name: 'webauthn_challenges_expiry', properties: ['expiresAt', 'id'] }],
  properties: {
    id: p.string().primary().length(64),
    kind: p.string().length(16),
    userId: p.string().length(36).nullable().index(),
    mfaChallengeId: p.string().length(64).nullable(),
    /** Whether the sign-in demands user verification (passwordless: the passkey is both factors). */
    userVerification: p.string().length(16),
    expiresAt: p.datetime(),
    createdAt: p.datetime(),
  },
});

export type WebauthnChallengeRow = InstanceType<typeof WebauthnChallenge.class>;
