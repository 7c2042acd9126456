import { defineEntity, p } from '@mikro-orm/core';

/**
 * A registered client an administrator enabled the device authorization grant for (RFC 8628; device-client.ts).
 * One row per enabled client; no row means disabled, the default, so every existing client keeps exactly
 * the grants it had. Kept beside the client registry rather than as a column of it: the grant is this
 * module's concern, and removing the row is all that disabling takes.
 */
export const DeviceGrantClient = defineEntity({
  name: 'DeviceGrantClient',
  tableName: 'oauth_device_grant_clients',
  properties: {
    /** The client's client_id (clients.client_id). */
    clientId: p.string().primary().length(64),
    enabledAt: p.datetime(),
  },
});
