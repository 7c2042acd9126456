/**
 * Admin operations of the device grant's per-client enablement (device-grant-client.entity.ts):
 * `_client_device_grant` reads whether a client may use it, `_set_client_device_grant` switches it. Served
 * over GraphQL, REST (/v1/admin/<name>) and gRPC like the client registry's own operations.
 */
import { defineOperation } from '../../../ops/define.ts';
import { s } from '../../../ops/schema.ts';
import { getClient } from '../../clients/index.ts';
import { DeviceGrantClient } from './device-grant-client.entity.ts';
import { deviceGrantEnabled } from './device-client.ts';

const ClientDeviceGrantQuery = s.object('ClientDeviceGrantQuery', {
  client_id: s.string({ minLength: 1, maxLength: 64 }),
});

const SetClientDeviceGrantRequest = s.object('SetClientDeviceGrantRequest', {
  client_id: s.string({ minLength: 1, maxLength: 64 }),
  enabled: s.boolean(),
});

const ClientDeviceGrant = s.object('ClientDeviceGrant', {
  client_id: s.string(),
  enabled: s.boolean({ description: 'whether the client may use the device authorization grant (RFC 8628)' }),
});

export const clientDeviceGrantOp = defineOperation({
  name: 'client_device_grant',
  admin: true,
  kind: 'query',
  description: 'Whether a registered client may use the device authorization grant (RFC 8628)',
  input: ClientDeviceGrantQuery,
  output: ClientDeviceGrant,
  auth: 'admin',
  handler: async (input, ctx) => {
    const client = await getClient(ctx.em, { client_id: input.client_id });
    return { client_id: client.clientId, enabled: await deviceGrantEnabled(ctx.em, client.id) };
  },
});

export const setClientDeviceGrantOp = defineOperation({
  name: 'set_client_device_grant',
  admin: true,
  kind: 'mutation',
  description: 'Enables or disables the device authorization grant (RFC 8628) for a registered client; off by default',
  input: SetClientDeviceGrantRequest,
  output: ClientDeviceGrant,
  auth: 'admin',
  handler: async (input, ctx) => {
    const client = await getClient(ctx.em, { client_id: input.client_id });
    if (input.enabled) {
      if (!(await deviceGrantEnabled(ctx.em, client.id))) {
        ctx.em.create(DeviceGrantClient, { id: client.id, enabledAt: ctx.deps.clock.now() });
        await ctx.em.flush();
      }
    } else {
      await ctx.em.nativeDelete(DeviceGrantClient, { id: client.id });
    }
    return { client_id: client.clientId, enabled: input.enabled };
  },
});

export const deviceGrantAdminOperations = [clientDeviceGrantOp, setClientDeviceGrantOp];
