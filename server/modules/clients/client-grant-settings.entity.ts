import { defineEntity, p } from '@mikro-orm/core';

/**
 * A registered client's per-client OAuth settings that are off by default and live beside the registry row
 * rather than as columns of it (client-settings.ts): one row per client that has the setting, no row for the
 * default, so every existing client keeps exactly what it had, and turning a setting off is deleting its row.
 * Each is keyed by the registry row's id (`clients.id`), not the client_id: a client deleted and registered
 * again under the same client_id starts without them. They belong to the registry (docs/architecture.md#module-layers:
 * what a module is sits low), so that `create_client` and `update_client` set them and the client's answer
 * shows them; the flows that read them (the device grant, token exchange, back-channel logout) sit above.
 */

/** The device authorization grant (RFC 8628) is enabled for the client (oauth/device/device-client.ts). */
export const DeviceGrantClient = defineEntity({
  name: 'DeviceGrantClient',
  tableName: 'oauth_client_device_grants',
  properties: {
    /** clients.id of the enabled client; named `id` as every entity's key is (MongoDB stores it as _id). */
    id: p.string().primary().length(36),
    enabledAt: p.datetime(),
  },
});

/**
 * The client may use the token exchange grant (RFC 8693; oauth/token-exchange/token-exchange-client.ts), with
 * the audiences it may ask for.
 */
export const TokenExchangeClient = defineEntity({
  name: 'TokenExchangeClient',
  tableName: 'oauth_client_token_exchanges',
  properties: {
    /** clients.id of the allowed client. */
    id: p.string().primary().length(36),
    /** The `audience` values (RFC 8693 section 2.1) it may name: logical names or absolute URIs. */
    audiences: p.json<string[]>(),
    enabledAt: p.datetime(),
  },
});

/**
 * The client's back-channel logout registration set by an administrator (OpenID Connect Back-Channel Logout 1.0
 * §2.2: backchannel_logout_uri and backchannel_logout_session_required; oauth/backchannel).
 */
export const BackchannelLogoutClient = defineEntity({
  name: 'BackchannelLogoutClient',
  tableName: 'oauth_client_backchannel_logout',
  properties: {
    /** clients.id of the client. */
    id: p.string().primary().length(36),
    uri: p.string().length(2048),
    /** §2.2: the client needs sid in the logout token (and the ID token carries it). */
    sessionRequired: p.boolean(),
    updatedAt: p.datetime(),
  },
});

export type BackchannelLogoutClientRow = InstanceType<typeof BackchannelLogoutClient.class>;
