/**
 * private_key_jwt client authentication (RFC 7523 section 2.2; OpenID Connect Core section 9): a
 * client_assertion signed by a trusted issuer registered for the client. Not served yet: an assertion is
 * refused as invalid_client, and discovery does not advertise the method (client-auth.ts
 * CLIENT_AUTH_METHODS).
 */
import type { Deps } from '../../../kernel/deps.ts';
import type { ClientCheck } from './client-auth.ts';

export const CLIENT_ASSERTION_TYPE = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';

/** Whether authenticateByAssertion can succeed; discovery advertises private_key_jwt only then. */
export const PRIVATE_KEY_JWT_SERVED = false;

export async function authenticateByAssertion(
  _deps: Deps,
  _assertion: string,
  _claimedClientId: string | undefined,
): Promise<ClientCheck> {
  return { ok: false, description: 'private_key_jwt client authentication is not supported', usedBasic: false };
}
