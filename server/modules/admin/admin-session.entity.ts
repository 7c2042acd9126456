import { defineEntity, p } from '@mikro-orm/core';

/**
 * A super-admin browser session. The id is an HMAC of the cookie token keyed with the --admin-secret in
 * force at login (admin.service.ts adminSessionId): the database never holds a usable token, and a row
 * stops matching any cookie once the server runs with another secret, so rotating the secret ends every
 * admin session (OWASP ASVS 3.3.3: sessions end when the credential changes). Kept in the database so that
 * every instance honours a login or logout at once.
 */
export const AdminSession = defineEntity({
  name: 'AdminSession',
  tableName: 'admin_sessions',
  // The expiry sweep (admin-session-sweep.ts) reads expired rows oldest first through it.
  indexes: [{ name: 'admin_sessions_expiry', properties: ['expiresAt', 'id'] }],
  properties: {
    id: p.string().primary().length(64),
    /** The sliding end: one hour after the last renewal, never past the absolute end. */
    expiresAt: p.datetime(),
    createdAt: p.datetime(),
    /**
     * When the administrator presented the secret; renewals carry it over, so a session ends 12 h after it
     * however often it is renewed (OWASP ASVS 3.3.4). Null only on rows older than the column (createdAt then).
     */
    loginAt: p.datetime().nullable(),
  },
});
