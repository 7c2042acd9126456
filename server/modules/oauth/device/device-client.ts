/**
 * Which clients may use the device authorization grant (RFC 8628 section 3.1): a registered, active client an
 * administrator enabled it for (clients' client-grant-settings.entity.ts, off by default). The instance client stands
 * for the first-party browser application, which has no device to sign in. Client authentication is the
 * token endpoint's (client-auth.ts): a confidential client proves itself with its secret or assertion, a
 * public one names its client_id (RFC 8628 section 3.1, by RFC 6749 section 3.2.1's rules).
 */
import type { EntityManager } from '@mikro-orm/core';
import { OAuthError } from '../../../kernel/oauth-error.ts';
import { deviceGrantEnabled } from '../../clients/index.ts';
import type { AuthenticatedClient } from '../client-auth.ts';

export type DeviceClient = NonNullable<AuthenticatedClient['registered']>;

export async function requireDeviceClient(em: EntityManager, client: AuthenticatedClient): Promise<DeviceClient> {
  const registered = client.registered;
  if (!registered || !registered.isActive || !(await deviceGrantEnabled(em, registered.id))) {
    throw new OAuthError(400, 'unauthorized_client', 'the device authorization grant is not enabled for this client');
  }
  return registered;
}
