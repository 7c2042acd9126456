/**
 * The device grant's per-client switch (server/modules/oauth/device/device-grant-admin.ops.ts): the admin
 * GraphQL fields `_client_device_grant` and `_set_client_device_grant`.
 */
import { useQuery } from '@tanstack/react-query';
import { call, type Output } from '../../../ui-shared/contract/call.ts';

export type ClientDeviceGrant = Output<'client_device_grant'>;

export const deviceGrantKeys = {
  one: (clientId: string) => ['client-device-grant', clientId] as const,
};

export function useClientDeviceGrant(clientId: string) {
  return useQuery({
    queryKey: deviceGrantKeys.one(clientId),
    queryFn: ({ signal }) => call('client_device_grant', { client_id: clientId }, signal),
  });
}

export async function setClientDeviceGrant(clientId: string, enabled: boolean): Promise<ClientDeviceGrant> {
  return call('set_client_device_grant', { client_id: clientId, enabled });
}
