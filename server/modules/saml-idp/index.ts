/**
 * This server as a SAML 2.0 identity provider for each organization's downstream service providers
 * (docs/api-overview.md#resources-and-fields, "SAML service provider", docs/api-overview.md#states-and-transitions,
 * "SAML IdP key", docs/operations.md, "SAML IdP"). Every
 * organization is its own IdP: its own signing keys (idp-keys.service.ts) and service providers
 * (service-providers.service.ts). Its browser endpoints: /saml/<organization>/metadata (metadata.endpoint.ts),
 * /sso (sso.endpoint.ts) and /slo (slo.endpoint.ts).
 */
import { defineModule, defineWorker } from '../manifest.ts';
import type { RetentionOptions, RetentionWorker } from '../audit/index.ts';
import { createSamlPendingLoginSweepWorker } from './pending-login-sweep.ts';
import { SamlIdpKey, SamlServiceProvider } from './saml-idp.entities.ts';
import { SamlIdpPendingLogin, SamlIdpRequestUse } from './sso-state.entities.ts';
import { idpKeyOperations } from './idp-keys.ops.ts';
import { serviceProviderOperations } from './service-providers.ops.ts';
import { idpMetadataEndpoint } from './metadata.endpoint.ts';
import { ssoEndpoint } from './sso.endpoint.ts';
import { sloEndpoint } from './slo.endpoint.ts';

export { SamlIdpKey, SamlServiceProvider, type SamlIdpKeyRow, type SamlServiceProviderRow } from './saml-idp.entities.ts';

export const samlIdpModule = defineModule({
  name: 'saml-idp',
  entities: [SamlIdpKey, SamlServiceProvider, SamlIdpRequestUse, SamlIdpPendingLogin],
  operations: [...idpKeyOperations, ...serviceProviderOperations],
  endpoints: [idpMetadataEndpoint, ssoEndpoint, sloEndpoint],
  workers: [defineWorker<RetentionWorker, RetentionOptions>({ name: 'saml-pending-login-sweep', create: createSamlPendingLoginSweepWorker })],
});
