import { defineEntity, p } from '@mikro-orm/core';

/**
 * A one-time code sent by email or SMS (verify_otp, reset by phone). The code itself is never stored:
 * `codeDigest` is the SHA-256 of the row id and the code, sealed with the at-rest key (deps.sealer,
 * --encryption-key), because six digits hashed without a secret fall to a million guesses from a dump.
 * `attempts` counts checks against this code; the fifth wrong one retires it.
 */
export const Otp = defineEntity({
  name: 'Otp',
  tableName: 'otps',
  // The expiry sweep (expiry-sweep.ts) reads expired rows oldest first through it.
  indexes: [{ name: 'otps_expiry', properties: ['expiresAt', 'id'] }],
  properties: {
    id: p.string().primary().length(36),
    purpose: p.string().length(64),
    userId: p.string().length(36).nullable().index(),
    email: p.string().length(255).nullable().index(),
    phoneNumber: p.string().length(32).nullable().index(),
    codeDigest: p.string().length(255),
    attempts: p.integer(),
    expiresAt: p.datetime(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
    usedAt: p.datetime().nullable(),
  },
});

export type OtpRow = InstanceType<typeof Otp.class>;
