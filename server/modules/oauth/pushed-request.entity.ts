import { defineEntity, p } from '@mikro-orm/core';

/**
 * An authorization request pushed to POST /oauth/par (RFC 9126 section 2), validated there exactly as
 * /authorize validates one, and named to the browser only by its request_uri
 * (urn:ietf:params:oauth:request_uri:<random 256 bits>); only the SHA-256 of the random part is stored. It is
 * bound to the client that pushed it (RFC 9126 section 4: the client_id at /authorize must match), and lives
 * a minute until /authorize first reads it, then long enough for the sign-in and consent round trips that
 * come back to it, and ends when /authorize answers the client (pushed-requests.ts). One never used is deleted
 * by the background sweep (pushed-request-sweep.ts).
 */
export const PushedAuthorizationRequest = defineEntity({
  name: 'PushedAuthorizationRequest',
  tableName: 'oauth_pushed_requests',
  indexes: [
    // The expiry sweep (pushed-request-sweep.ts) reads expired rows oldest first through it.
    { name: 'oauth_pushed_requests_expiry', properties: ['expiresAt', 'id'] },
    // The cap of live requests per client counts through it (pushed-requests.ts).
    { name: 'oauth_pushed_requests_client', properties: ['clientId', 'expiresAt'] },
  ],
  properties: {
    /** sha256 hex of the random part of the request_uri. */
    id: p.string().primary().length(64),
    clientId: p.string().length(64),
    /** The validated /authorize parameters; rewritten when a sign-in or consent round trip satisfies a prompt. */
    params: p.json<Record<string, string>>(),
    createdAt: p.datetime(),
    /** Whether /authorize has read it once (its lifetime was then extended). */
    opened: p.boolean(),
    expiresAt: p.datetime(),
  },
});

export type PushedAuthorizationRequestRow = InstanceType<typeof PushedAuthorizationRequest.class>;
