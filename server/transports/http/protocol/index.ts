/**
 * Specification-shaped endpoints outside /v1 (docs/api-overview.md#http-endpoints-outside-v1) not yet
 * moved into their module as endpoints (transports/http/endpoints.ts mounts those): none any more. Mounted whatever --enable-grpc says (unlike REST), in their own plugin scope so that their
 * errors, malformed bodies included, answer in the OAuth shape.
 */
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../../kernel/deps.ts';
import { oauthErrorHandler } from './oauth-errors.ts';

export async function registerProtocolRoutes(http: FastifyInstance, deps: Deps): Promise<void> {
  await http.register(async (scope) => {
    scope.setErrorHandler(oauthErrorHandler);
    // Any other content type arrives as text and is read as JSON or form by readOAuthBody.
    scope.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => done(null, body));
    // Further endpoints register here, one line each (browser-facing ones in their own scope with an HTML
    // error page instead of the OAuth JSON shape).
  });
}
