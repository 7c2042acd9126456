/**
 * Organization SSO routes: GET /sso/<organization>/start, GET /sso/oidc/callback, and the SAML service
 * provider's GET /sso/saml/<organization>/metadata and POST /sso/saml/<organization>/acs (org-sso module).
 * Browser-facing, so in their own scope whose errors answer an HTML page (ui/html-error-page.ts) rather
 * than the OAuth JSON of the surrounding protocol scope; an unexpected failure shows a request id only.
 */
import type { FastifyError, FastifyInstance } from 'fastify';
import type { Deps } from '../../../../kernel/deps.ts';
import { IdpClient } from '../../../../modules/org-sso/index.ts';
import { sendSocialPage } from '../social/social-pages.ts';
import { callbackRoute } from './callback-route.ts';
import { startRoute } from './start-route.ts';
import { samlAcsRoute } from './saml-acs-route.ts';
import { samlMetadataRoute } from './saml-metadata-route.ts';

export async function registerOrgSsoRoutes(parent: FastifyInstance, deps: Deps): Promise<void> {
  // One per app: the discovery and key caches of the organizations' IdPs.
  const idp = new IdpClient();
  await parent.register(async (scope) => {
    scope.setErrorHandler((error: FastifyError, request, reply) => {
      const status = error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
      if (status === 500) request.log.error({ err: error }, 'organization sign-in failed unexpectedly');
      return sendSocialPage(reply, status, 'Sign-in failed', [status === 500 ? `Something went wrong (request ${String(request.id)}). Start again from the application.` : 'The request could not be read.']);
    });
    scope.get('/sso/oidc/callback', callbackRoute(deps, idp));
    scope.get('/sso/:org/start', startRoute(deps, idp));
    scope.get('/sso/saml/:org/metadata', samlMetadataRoute(deps));
    scope.post('/sso/saml/:org/acs', samlAcsRoute(deps));
  });
}
