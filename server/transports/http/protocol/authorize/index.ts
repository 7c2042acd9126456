/**
 * The browser-facing authorization endpoint, in its own plugin scope: what goes wrong there is shown to a
 * person as an HTML page (html-error-page.ts), not as the OAuth JSON of the token endpoints, and never as a
 * redirect to an address that was not vetted. The per-IP rate limit of every route (rate-limit.ts) applies.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../../../kernel/deps.ts';
import { AppError } from '../../../../kernel/errors.ts';
import { authorizeEndpoint } from './authorize-endpoint.ts';
import { sendAuthorizeErrorPage } from './authorization-answer.ts';

function authorizeErrorHandler(error: FastifyError | AppError, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const status = error instanceof AppError ? undefined : error.statusCode;
  if (status !== undefined && status >= 400 && status < 500) return sendAuthorizeErrorPage(reply, 'The request could not be read.', status);
  if (error instanceof AppError && error.kind === 'too_many_requests') {
    reply.header('retry-after', String(error.retryAfterSeconds ?? 60));
    return sendAuthorizeErrorPage(reply, 'Too many requests: wait a moment and try again.', 429);
  }
  request.log.error({ err: error }, 'authorization endpoint failed unexpectedly');
  return sendAuthorizeErrorPage(reply, `Something went wrong on the server (request ${String(request.id)}).`, 500);
}

export async function registerAuthorizeRoutes(scope: FastifyInstance, deps: Deps): Promise<void> {
  await scope.register(async (browser) => {
    browser.setErrorHandler(authorizeErrorHandler);
    const handler = authorizeEndpoint(deps);
    // No automatic HEAD: it would run the whole request and issue a code (or spend a consent) nobody reads.
    browser.route({ method: 'GET', url: '/authorize', handler, exposeHeadRoute: false });
    browser.post('/authorize', handler);
    browser.head('/authorize', async (_request, reply) => reply.header('allow', 'GET, POST').status(405).send());
  });
}
