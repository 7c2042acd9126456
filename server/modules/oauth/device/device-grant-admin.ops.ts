/**
 * Admin operations of the device grant's per-client enablement (clients' client-grant-settings.entity.ts):
 * `_client_device_grant` reads whether a client may use it (RFC 8628), `_set_client_device_grant` switches it;
 * `create_client` and `update_client` take the same switch as `device_grant_enabled`.
 */
import { s } from '../../../ops/schema.ts';
import { clientSettingOperations, deviceGrantEnabled, setDeviceGrant } from '../../clients/index.ts';

export const deviceGrantAdminOperations = clientSettingOperations({
  name: 'device_grant',
  readDescription: 'Whether a registered client may use the device authorization grant (RFC 8628)',
  setDescription: 'Enables or disables the device authorization grant (RFC 8628) for a registered client; off by default',
  setFields: { enabled: s.boolean() },
  answerFields: { enabled: s.boolean({ description: 'whether the client may use the device authorization grant (RFC 8628)' }) },
  read: async (em, client) => ({ enabled: await deviceGrantEnabled(em, client.id) }),
  write: async (ctx, client, input) => {
    await setDeviceGrant(ctx.em, ctx.deps.clock.now(), client.id, input.enabled);
    return { enabled: input.enabled };
  },
});
