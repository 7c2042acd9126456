/**
 * The client registry (docs/operations.md): registered OAuth clients, their admin operations, and the
 * client-secret check the token endpoint builds on.
 */
import { defineModule } from '../manifest.ts';
import { Client } from './client.entity.ts';
import { clientAdminOperations } from './admin-clients.ops.ts';
import { TrustedIssuer, UsedAssertion } from './trusted-issuer.entity.ts';
import { trustedIssuerAdminOperations } from './trusted-issuers.ops.ts';
import { InitialAccessToken } from './initial-access-token.entity.ts';
import { initialAccessTokenOperations } from './initial-access-tokens.ops.ts';
import { registrationEndpoint, registrationManagementEndpoint } from './registration.endpoint.ts';
import { BackchannelLogoutClient, DeviceGrantClient, TokenExchangeClient } from './client-grant-settings.entity.ts';

export { Client, type ClientRow, postLogoutRedirectUrisOf, isPublicClient } from './client.entity.ts';
export { resourceProblem } from './allowed-resources.ts';
export { backchannelUriProblem } from './backchannel-logout-uri.ts';
export { REGISTRATION_PATH } from './registration.endpoint.ts';
export {
  verifyClientSecret, requireClient, isActiveClientId, knownActiveClientId, checkClientSecret, recentlyVerifiedClient, getClient,
} from './clients.service.ts';
// Client assertions (RFC 7523) for the token endpoint's client authentication and the JWT bearer grant.
export { ASSERTION_ALGORITHMS, AssertionError, CLOCK_TOLERANCE_SECONDS, peekAssertion, verifyAssertion } from './assertions.ts';
export { consumeAssertionId } from './assertion-replay.ts';
export { activeIssuersOfClient, activeIssuersNamed, tokenEndpointUrl } from './trusted-issuers.service.ts';
export { toPublicClient, type PublicClient } from './clients.schema.ts';
export { clientAdminOperations } from './admin-clients.ops.ts';
// The per-client OAuth settings the device grant, token exchange and back-channel logout read.
export { BackchannelLogoutClient, type BackchannelLogoutClientRow } from './client-grant-settings.entity.ts';
export { clientSettingOperations } from './client-setting-ops.ts';
export {
  MAX_EXCHANGE_AUDIENCES, backchannelRegistrationFrom, backchannelRegistrationOf, deviceGrantEnabled, exchangeAudiencesOf,
  setBackchannelLogout, setDeviceGrant, setTokenExchange, type BackchannelRegistration,
} from './client-settings.ts';

export { TrustedIssuer, type TrustedIssuerRow } from './trusted-issuer.entity.ts';
export { trustedIssuerAdminOperations } from './trusted-issuers.ops.ts';

export const clientsModule = defineModule({
  name: 'clients',
  entities: [Client, TrustedIssuer, UsedAssertion, InitialAccessToken, DeviceGrantClient, TokenExchangeClient, BackchannelLogoutClient],
  operations: [...clientAdminOperations, ...trustedIssuerAdminOperations, ...initialAccessTokenOperations],
  // Dynamic client registration (RFC 7591, RFC 7592), mounted only with --dynamic-registration on.
  endpoints: [registrationEndpoint, registrationManagementEndpoint],
});
