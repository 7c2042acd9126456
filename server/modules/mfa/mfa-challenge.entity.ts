import { defineEntity, p } from '@mikro-orm/core';

/**
 * A login waiting for its second factor: the session behind the `mfa` cookie
 * (docs/api-overview.md#authentication, "Cookie mfa"). The id is the SHA-256 of the cookie's random value, so a database reader cannot present it. It
 * keeps what the first step decided (roles, scope, login method, nonce) for the login the second factor
 * completes, the wrong codes spent on it, and its end (the cookie's five minutes). Deleted when completed.
 */
export const MfaChallenge = defineEntity({
  name: 'MfaChallenge',
  tableName: 'mfa_challenges',
  // The expiry sweep (challenge-sweep.ts) reads expired rows oldest first through it.
  indexes: [{ name: 'mfa_challenges_expiry', properties: ['expiresAt', 'id'] }],
  properties: {
    id: p.string().primary().length(64),
    userId: p.string().length(36).index(),
    /**
     * `verify`: the user has a verified factor and must pass it. `offer`: the user has none and is offered
     * to enrol one (docs/api-overview.md#states-and-transitions, "MFA offer pending, token withheld"); only this stage may enrol a
     * factor with the cookie alone, or someone holding just the password could add their own factor.
     */
    stage: p.string().length(8),
    roles: p.json<string[]>(),
    scope: p.json<string[]>(),
    loginMethod: p.string().length(32),
    /** The OpenID Connect nonce the first step carried (an emailed link's), for the tokens the login issues. */
    nonce: p.string().length(255).nullable(),
    attempts: p.integer(),
    expiresAt: p.datetime(),
    createdAt: p.datetime(),
  },
});

export type MfaChallengeRow = InstanceType<typeof MfaChallenge.class>;
