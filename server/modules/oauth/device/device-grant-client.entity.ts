import { defineEntity, p } from '@mikro-orm/core';

/**
 * A registered client an administrator enabled the device authorization grant for (RFC 8628; device-client.ts).
 * One row per enabled client; no row means disabled, the default, so every existing client keeps exactly
 * the grants it had. Kept beside the client registry rather than as a column of it: the grant is this
 * module's concern, and removing the row is all that disabling takes. Keyed by the registry row's id, not
 * the client_id: a client deleted and registered again under the same client_id starts disabled.
 */
export const DeviceGrantClient = defineEntity({
  name: 'DeviceGrantClient',
  tableName: 'oauth_client_device_grants',
  properties: {
    /** clients.id of the enabled client; named `id` as every entity's key is (MongoDB stores it as _id). */
    id: p.string().primary().length(36),
    enabledAt: p.datetime(),
  },
});
