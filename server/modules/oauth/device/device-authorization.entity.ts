import { defineEntity, p } from '@mikro-orm/core';

/**
 * A device authorization request (RFC 8628 section 3.1; device-authorizations.ts). Neither code is stored:
 * the row is keyed by the SHA-256 of the device_code, and the user_code is kept as the SHA-256 of its
 * normalized form, so a database reader can neither poll nor approve. It lives 10 minutes; the device polls
 * no faster than `intervalSeconds` (RFC 8628 section 3.5: each slow_down adds 5 seconds). A user approves
 * or denies it once; an approved request is redeemed once (`usedAt`, set by one conditional update), and a
 * second presentation ends the session its redemption opened (`issuedSessionId`), so every token issued from
 * the code stops (RFC 6749 section 4.1.2's rule for a code used twice).
 */
export const DeviceAuthorization = defineEntity({
  name: 'DeviceAuthorization',
  tableName: 'oauth_device_authorizations',
  properties: {
    /** sha256 hex of the device_code. */
    id: p.string().primary().length(64),
    /** sha256 hex of the normalized user_code (user-code.ts). */
    userCodeHash: p.string().length(64).unique(),
    clientId: p.string().length(64),
    scope: p.json<string[]>(),
    createdAt: p.datetime(),
    expiresAt: p.datetime().index(),
    intervalSeconds: p.integer(),
    lastPolledAt: p.datetime().nullable(),
    /** null while pending; 'approved' or 'denied' once the user decided (RFC 8628 section 3.3). */
    decision: p.string().length(16).nullable(),
    /** The approving user and the browser session the tokens are minted on, as for an authorization code. */
    userId: p.string().length(36).nullable().index(),
    sessionId: p.string().length(64).nullable(),
    usedAt: p.datetime().nullable(),
    /** The device's own session its redemption opened (sessions.id); every token issued from the code lives on it. */
    issuedSessionId: p.string().length(64).nullable(),
  },
});

export type DeviceAuthorizationRow = InstanceType<typeof DeviceAuthorization.class>;
