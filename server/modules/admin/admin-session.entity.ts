import { defineEntity, p } from '@mikro-orm/core';

/**
 * A super-admin browser session. Only the SHA-256 of the cookie token is stored (guide: one-time secrets
 * hashed at rest), in the database so that every instance honours a login or logout at once.
 */
export const AdminSession = defineEntity({
  name: 'AdminSession',
  tableName: 'admin_sessions',
  properties: {
    id: p.string().primary().length(64),
    expiresAt: p.datetime(),
    createdAt: p.datetime(),
  },
});
