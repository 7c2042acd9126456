/**
 * Social sign-in (docs/api-overview.md#parameters-of-the-oauth-and-sign-in-endpoints, "/oauth_callback"): the provider catalogue, the
 * state of a sign-in between its two requests, the upstream client and the account linking rule, and its
 * endpoints: GET /oauth_login/<provider> and GET (POST for form_post providers) /oauth_callback/<provider>.
 * Browser-facing: their refusals are pages (ops/sign-in-pages.ts), never the OAuth JSON.
 */
import { defineModule } from '../manifest.ts';
import { socialLoginEndpoint } from './login.endpoint.ts';
import { socialCallbackEndpoint } from './callback.endpoint.ts';
import { socialFormPostEndpoint } from './form-post.endpoint.ts';
import { socialUpstreamsService } from './upstreams.service.ts';
import { subscription } from '../../kernel/hooks.ts';
import { onAccountErased, onAccountTakeover, onPersonalDataExport } from '../accounts/index.ts';
import { eraseSocialIdentities, exportSocialIdentities } from './personal-data.ts';
import { SocialIdentity, SocialLoginState } from './social.entities.ts';

export { enabledProvider, upstreamScopes, type EnabledProvider } from './providers.ts';
export { BINDING_COOKIE, LOGIN_STATE_SECONDS, startLoginState, takeLoginState, type LoginState } from './login-state.ts';
export { SocialUpstreams } from './upstream-client.ts';
export { UpstreamError } from './upstream-http.ts';
export { SignInRefused, completeSocialSignIn } from './sign-in.ts';
export { identityOfClaims } from './oidc-identity.ts';
export type { UpstreamIdentity } from './profiles.ts';
export { SocialIdentity, SocialLoginState } from './social.entities.ts';

export const socialModule = defineModule({
  name: 'social',
  entities: [SocialLoginState, SocialIdentity],
  endpoints: [socialLoginEndpoint, socialCallbackEndpoint, socialFormPostEndpoint],
  // One per app: the discovery and JWKS caches of the OIDC upstreams.
  services: [socialUpstreamsService],
  // A taken-over account keeps no social sign-in of its previous holder.
  // The holder's copy and the erasure of their data (docs/privacy.md).
  hooks: [
    subscription(onAccountTakeover, (em, userId) => em.nativeDelete(SocialIdentity, { userId })),
    subscription(onPersonalDataExport, exportSocialIdentities),
    subscription(onAccountErased, eraseSocialIdentities),
  ],
});
