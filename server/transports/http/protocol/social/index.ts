/**
 * Social sign-in routes (docs/api-overview.md#http-endpoints-outside-v1): GET /oauth_login/<provider> and GET (POST for form_post
 * providers) /oauth_callback/<provider>. Browser-facing, so in their own scope whose errors, malformed
 * bodies included, answer an HTML page rather than the OAuth JSON of the surrounding protocol scope.
 */
import type { FastifyError, FastifyInstance } from 'fastify';
import type { Deps } from '../../../../kernel/deps.ts';
import { SocialUpstreams } from '../../../../modules/social/index.ts';
import { callbackRoute, formPostRoute } from './callback-route.ts';
import { loginRoute } from './login-route.ts';
import { sendSocialPage } from './social-pages.ts';

export async function registerSocialRoutes(parent: FastifyInstance, deps: Deps): Promise<void> {
  // One per app: the discovery and JWKS caches of the OIDC upstreams.
  const upstreams = new SocialUpstreams();
  await parent.register(async (scope) => {
    scope.setErrorHandler((error: FastifyError, request, reply) => {
      const status = error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
      if (status === 500) request.log.error({ err: error }, 'social sign-in failed unexpectedly');
      return sendSocialPage(reply, status, 'Sign-in failed', [status === 500 ? `Something went wrong (request ${String(request.id)}). Start again from the application.` : 'The request could not be read.']);
    });
    scope.get('/oauth_login/:provider', loginRoute(deps, upstreams));
    scope.get('/oauth_callback/:provider', callbackRoute(deps, upstreams));
    scope.post('/oauth_callback/:provider', formPostRoute(deps));
  });
}
