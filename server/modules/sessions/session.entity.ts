import { defineEntity, p } from '@mikro-orm/core';

/**
 * A user login session (docs/api-overview.md#authentication: the cookie_session pair). The id is the
 * SHA-256 of the random token the cookies carry, so the database never holds a usable session secret.
 * The session also anchors the tokens issued for it: ending it revokes them (docs/tokens.md).
 */
export const Session = defineEntity({
  name: 'Session',
  tableName: 'sessions',
  properties: {
    /** sha256 hex of the session token (the cookie value). */
    id: p.string().primary().length(64),
    userId: p.string().length(36).index(),
    /** Roles the session was opened with (a subset of the user's roles). */
    roles: p.json<string[]>(),
    scope: p.json<string[]>(),
    /** basic_auth, mobile_basic_auth, magic_link_login, google, ... */
    loginMethod: p.string().length(64),
    createdAt: p.datetime(),
    /**
     * When the user actually authenticated. A session refresh (the `session` query) opens a new row but
     * carries this over, so the absolute lifetime (tokens/lifetimes.ts) counts from the real login
     * (OWASP ASVS 3.3.4 absolute timeout; OpenID Connect Core 2 auth_time). Null on rows written before the
     * column existed: createdAt stands in (authTimeOf).
     */
    authTime: p.datetime().nullable(),
    /** The cookie's end (24 h, never past the absolute end); refresh tokens of the session outlive it until revoked. */
    expiresAt: p.datetime(),
    revokedAt: p.datetime().nullable(),
    /**
     * The device the session was opened from, shown to its owner (my_sessions) and to administrators so a
     * session nobody recognises can be ended (OWASP ASVS 3.3.4: the user can see and end their sessions): the
     * User-Agent as sent, cut to USER_AGENT_MAX_LENGTH, and the client address per --trusted-proxies
     * (docs/configuration.md). Null on rows written before the columns existed and on the device grant's sessions.
     */
    userAgent: p.string().length(512).nullable(),
    ipAddress: p.string().length(64).nullable(),
    /** When the session was last used, at a resolution of a minute (session-activity.ts); null: createdAt stands in. */
    lastUsedAt: p.datetime().nullable(),
  },
  // The background sweep (tokens/expiry-sweep.ts) walks every user's expired sessions oldest first: a seek
  // on (expiry, id), as token-record.entity.ts.
  indexes: [{ name: 'sessions_expiry', properties: ['expiresAt', 'id'] }],
});

export type SessionRow = InstanceType<typeof Session.class>;

/** The original authentication time of a session (createdAt for rows older than the authTime column). */
export function authTimeOf(session: Pick<SessionRow, 'authTime' | 'createdAt'>): Date {
  return session.authTime ?? session.createdAt;
}
