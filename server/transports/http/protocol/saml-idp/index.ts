/**
 * The SAML identity provider's browser endpoints, per organization (saml-idp module): GET
 * /saml/<organization>/metadata, GET and POST /saml/<organization>/sso, and GET and POST /saml/<organization>/slo.
 * In their own scope whose errors answer an HTML page rather than the OAuth JSON of the surrounding
 * protocol scope; an unexpected failure shows a request id only.
 */
import type { FastifyError, FastifyInstance } from 'fastify';
import type { Deps } from '../../../../kernel/deps.ts';
import { sendSocialPage } from '../social/social-pages.ts';
import { idpMetadataRoute } from './metadata-route.ts';
import { ssoRoute } from './sso-route.ts';
import { sloRoute } from './slo-route.ts';

export async function registerSamlIdpRoutes(parent: FastifyInstance, deps: Deps): Promise<void> {
  await parent.register(async (scope) => {
    scope.setErrorHandler((error: FastifyError, request, reply) => {
      const status = error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
      if (status === 500) request.log.error({ err: error }, 'SAML identity provider failed unexpectedly');
      return sendSocialPage(reply, status, 'Sign-in failed', [status === 500 ? `Something went wrong (request ${String(request.id)}). Start again from the application.` : 'The request could not be read.']);
    });
    scope.get('/saml/:org/metadata', idpMetadataRoute(deps));
    scope.get('/saml/:org/sso', ssoRoute(deps));
    scope.post('/saml/:org/sso', ssoRoute(deps));
    scope.get('/saml/:org/slo', sloRoute(deps));
    scope.post('/saml/:org/slo', sloRoute(deps));
  });
}
