/**
 * The device page's operations (server/modules/oauth/device, RFC 8628 section 3.3): the request a user code
 * names (which client asks for which scopes), and the person's decision. Both need the session cookie;
 * wrong codes are counted by the server against this session and address.
 */
import { call, type Output } from '../../../ui-shared/contract/public-call.ts';

export type DeviceRequest = Output<'device_authorization_request'>;

export async function deviceRequest(userCode: string): Promise<DeviceRequest> {
  return call('device_authorization_request', { user_code: userCode });
}

export async function decideDeviceRequest(userCode: string, approve: boolean): Promise<void> {
  await call('decide_device_authorization', { user_code: userCode, approve });
}
