/**
 * The OAuth 2.0 Device Authorization Grant (RFC 8628; docs/protocols.md): the device authorization endpoint,
 * the device page's operations (login-ui/src/device), and the per-client enablement an administrator
 * switches. The token endpoint's grant is ../grants/device-code-grant.ts, listed with the other grants.
 */
import { defineModule } from '../../manifest.ts';
import { subscription } from '../../../kernel/hooks.ts';
import { onAccountErased, onAccountTakeover } from '../../accounts/index.ts';
import { DeviceAuthorization } from './device-authorization.entity.ts';
import { deviceAuthorizationEndpoint } from './device-authorization.endpoint.ts';
import { deviceOperations } from './device.ops.ts';
import { deviceGrantAdminOperations } from './device-grant-admin.ops.ts';

export { DEVICE_AUTHORIZATION_PATH } from './device-authorization.endpoint.ts';

export const deviceGrantModule = defineModule({
  name: 'device-grant',
  // The per-client switch (DeviceGrantClient) is the client registry's (clients/client-grant-settings.entity.ts).
  entities: [DeviceAuthorization],
  operations: [...deviceOperations, ...deviceGrantAdminOperations],
  endpoints: [deviceAuthorizationEndpoint],
  // A taken-over account's approvals of its previous holder are not redeemed.
  // An erased account's approvals go with it (docs/privacy.md#what-erasure-does).
  hooks: [
    subscription(onAccountTakeover, async (em, userId) => { await em.nativeDelete(DeviceAuthorization, { userId }); }),
    subscription(onAccountErased, async (em, userId) => { await em.nativeDelete(DeviceAuthorization, { userId }); }),
  ],
});
