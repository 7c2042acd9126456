/**
 * The authorization side of OAuth 2.0 / OpenID Connect (docs/api-overview.md#parameters-of-the-oauth-and-sign-in-endpoints): request
 * validation, authorization codes, consents and the requests waiting for one, and the consent screen's
 * operations; client authentication (RFC 6749 section 2.3) and the back-channel endpoints: revocation,
 * introspection and UserInfo; the token endpoint and its grants; the discovery documents; RP-initiated logout;
 * the authorization endpoint (authorize.endpoint.ts).
 */
import { defineModule, defineWorker } from '../manifest.ts';
import type { RetentionOptions, RetentionWorker } from '../audit/index.ts';
import { subscription } from '../../kernel/hooks.ts';
import { onAccountErased, onAccountTakeover, onPersonalDataExport } from '../accounts/index.ts';
import { eraseOauthRows, exportConsents } from './personal-data.ts';
import { AuthorizationCode } from './authorization-code.entity.ts';
import { Consent } from './consent.entity.ts';
import { PendingAuthorization } from './pending-authorization.entity.ts';
import { PushedAuthorizationRequest } from './pushed-request.entity.ts';
import { parEndpoint } from './par.endpoint.ts';
import { createPushedRequestSweepWorker } from './pushed-request-sweep.ts';
import { oauthOperations } from './oauth.ops.ts';
import { revokeEndpoint } from './revoke.endpoint.ts';
import { introspectEndpoint } from './introspect.endpoint.ts';
import { userinfoEndpoint } from './userinfo.endpoint.ts';
import { tokenEndpoint } from './token.endpoint.ts';
import { authorizationServerMetadataEndpoint, openidConfigurationEndpoint } from './discovery.endpoint.ts';
import { logoutEndpoint } from './logout.endpoint.ts';
import { authorizeEndpoint } from './authorize.endpoint.ts';

export { returningClientName } from './returning-client.ts';
export { parseAuthorizationRequest, SUPPORTED_SCOPES, type AuthorizationRequest, type ParsedAuthorization } from './authorization-request.ts';
export {
  RESPONSE_MODES, defaultResponseMode, redirectUrl, responseFields, type ResponseMode, type ResponseTarget,
} from './authorization-response.ts';
export { issueAuthorizationCode, redeemAuthorizationCode, CODE_SECONDS, CODE_VERIFIER, type RedeemResult } from './authorization-codes.ts';
export { consentCovers, grantConsent } from './consents.ts';
export { openPendingAuthorization, findPendingAuthorization, closePendingAuthorization } from './pending-authorizations.ts';
export { authorizeResumeUrl, withoutPrompt } from './resume-url.ts';
export { oauthOperations } from './oauth.ops.ts';
export { stringField, scopeField, type OAuthBody } from './oauth-body.ts';
export { authenticateClient, CLIENT_AUTH_METHODS, type AuthenticatedClient } from './client-auth.ts';
export { authenticateByAssertion } from './client-assertion.ts';
export { GRANTS } from './grants/index.ts';
export { isClientCredentialsToken } from './client-credentials-token.ts';

export const oauthModule = defineModule({
  name: 'oauth',
  entities: [AuthorizationCode, Consent, PendingAuthorization, PushedAuthorizationRequest],
  operations: oauthOperations,
  endpoints: [
    tokenEndpoint, revokeEndpoint, introspectEndpoint, userinfoEndpoint, openidConfigurationEndpoint, authorizationServerMetadataEndpoint,
    logoutEndpoint, authorizeEndpoint, parEndpoint,
  ],
  // Deletes expired pushed authorization requests in bounded batches, on one instance at a time (pushed-request-sweep.ts).
  workers: [defineWorker<RetentionWorker, RetentionOptions>({ name: 'par-sweep', create: createPushedRequestSweepWorker })],
  // A taken-over account keeps no code, consent or waiting request of its previous holder.
  hooks: [
    subscription(onAccountTakeover, async (em, userId) => {
      await em.nativeDelete(AuthorizationCode, { userId });
      await em.nativeDelete(PendingAuthorization, { userId });
      await em.nativeDelete(Consent, { userId });
    }),
    // The holder's copy and the erasure of their data (docs/privacy.md).
    subscription(onPersonalDataExport, exportConsents),
    subscription(onAccountErased, eraseOauthRows),
  ],
});
