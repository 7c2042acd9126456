import { defineEntity, p } from '@mikro-orm/core';

/**
 * An authorization request waiting for the user's consent (the login UI's /app/consent?request=<id>). Kept
 * in the database, not in one instance's memory, so any instance can answer the consent screen. The id in
 * the URL is random (256 bits) and only its SHA-256 is stored. It is bound to the user and to the login
 * (auth time) that opened it: a session refresh keeps the auth time, another person's session does not
 * match. It lives 10 minutes.
 */
export const PendingAuthorization = defineEntity({
  name: 'PendingAuthorization',
  tableName: 'oauth_pending_authorizations',
  properties: {
    /** sha256 hex of the request id. */
    id: p.string().primary().length(64),
    userId: p.string().length(36).index(),
    authTime: p.datetime(),
    clientId: p.string().length(64),
    /** The validated /authorize parameters, replayed by the resume URL. */
    params: p.json<Record<string, string>>(),
    scopes: p.json<string[]>(),
    /** 'denied' once the user said no to a form_post or web_message request (answered by /authorize). */
    decision: p.string().length(16).nullable(),
    createdAt: p.datetime(),
    expiresAt: p.datetime().index(),
  },
});

export type PendingAuthorizationRow = InstanceType<typeof PendingAuthorization.class>;
