import { defineEntity, p } from '@mikro-orm/core';

/**
 * A registered client an administrator allowed to use the token exchange grant (RFC 8693; token-exchange-client.ts),
 * with the audiences it may ask for. One row per allowed client; no row means not allowed, the default, so every
 * existing client keeps exactly the grants it had. Kept beside the client registry rather than as a column of it
 * (as device/device-grant-client.entity.ts is): the grant is this module's concern. Keyed by the registry row's
 * id, not the client_id: a client deleted and registered again under the same client_id starts without it.
 */
export const TokenExchangeClient = defineEntity({
  name: 'TokenExchangeClient',
  tableName: 'oauth_client_token_exchanges',
  properties: {
    /** clients.id of the allowed client; named `id` as every entity's key is (MongoDB stores it as _id). */
    id: p.string().primary().length(36),
    /** The `audience` values (RFC 8693 section 2.1) it may name: logical names or absolute URIs. */
    audiences: p.json<string[]>(),
    enabledAt: p.datetime(),
  },
});
