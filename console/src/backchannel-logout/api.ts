/**
 * A client's back-channel logout registration (server/modules/oauth/backchannel/backchannel-admin.ops.ts): the
 * admin GraphQL fields `_client_backchannel_logout` and `_set_client_backchannel_logout`.
 */
import { useQuery } from '@tanstack/react-query';
import { call, type Output } from '../../../ui-shared/contract/call.ts';

export type ClientBackchannelLogout = Output<'client_backchannel_logout'>;

export const backchannelKeys = {
  one: (clientId: string) => ['client-backchannel-logout', clientId] as const,
};

export function useClientBackchannelLogout(clientId: string) {
  return useQuery({
    queryKey: backchannelKeys.one(clientId),
    queryFn: ({ signal }) => call('client_backchannel_logout', { client_id: clientId }, signal),
  });
}

export async function setClientBackchannelLogout(clientId: string, uri: string, sessionRequired: boolean): Promise<ClientBackchannelLogout> {
  return call('set_client_backchannel_logout', { client_id: clientId, backchannel_logout_uri: uri, backchannel_logout_session_required: sessionRequired });
}
