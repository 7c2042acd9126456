/**
 * OAuth 2.0 error responses (RFC 6749 section 5.2): `{error, error_description}` with 400, or 401 for
 * invalid_client; 503 temporarily_unavailable while the database is down (docs/deployment.md#when-the-database-is-down). Token responses and their errors are never cached (RFC 6749 section 5.1).
 */
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, logConverted, toAppError } from '../../kernel/errors.ts';
import { OAuthError, type OAuthErrorCode } from '../../kernel/oauth-error.ts';

export type { OAuthErrorCode } from '../../kernel/oauth-error.ts';

export function noStore(reply: FastifyReply): FastifyReply {
  return reply.header('cache-control', 'no-store').header('pragma', 'no-cache');
}

export function sendOAuthError(reply: FastifyReply, status: number, error: OAuthErrorCode, description: string): FastifyReply {
  return noStore(reply).status(status).type('application/json; charset=utf-8').send({ error, error_description: description });
}

/**
 * A refusal of an endpoint whose errors are 'oauth' (transports/http/endpoints.ts), already logged by the
 * pipeline (ops/invoke.ts refusalOf): an OAuthError as it says, anything unexpected as server_error naming
 * the request id, any other AppError as invalid_request.
 */
export function sendOAuthRefusal(reply: FastifyReply, refusal: AppError): FastifyReply {
  if (refusal instanceof OAuthError) {
    if (refusal.challenge) reply.header('www-authenticate', refusal.challenge);
    if (refusal.retryAfterSeconds !== undefined) reply.header('retry-after', String(refusal.retryAfterSeconds));
    return noStore(reply).status(refusal.status).type('application/json; charset=utf-8').send(refusal.body());
  }
  if (refusal.kind === 'internal') return sendOAuthError(reply, 500, 'server_error', refusal.message);
  if (refusal.kind === 'unavailable') {
    // RFC 6749 section 4.1.2.1 temporarily_unavailable, with RFC 9110 section 10.2.3's Retry-After.
    if (refusal.retryAfterSeconds !== undefined) reply.header('retry-after', String(refusal.retryAfterSeconds));
    return sendOAuthError(reply, 503, 'temporarily_unavailable', refusal.message);
  }
  if (refusal.kind === 'too_many_requests') {
    // RFC 6749 names no error for a spent request budget: RFC 6585 section 4's 429 with its Retry-After, and
    // temporarily_unavailable (section 4.1.2.1) as the code a client already knows means "later".
    reply.header('retry-after', String(refusal.retryAfterSeconds ?? 60));
    return sendOAuthError(reply, 429, 'temporarily_unavailable', refusal.message);
  }
  return sendOAuthError(reply, 400, 'invalid_request', refusal.message);
}

/**
 * Error handler of the protocol routes: malformed bodies and other client errors in the OAuth shape, anything
 * unexpected as server_error naming the request id (detail in the log only).
 */
export function oauthErrorHandler(error: FastifyError | AppError, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const fastifyError = error instanceof AppError ? undefined : error;
  const status = fastifyError?.statusCode;
  if (fastifyError && status !== undefined && status >= 400 && status < 500) {
    const description = fastifyError.code === 'FST_ERR_CTP_INVALID_JSON' || fastifyError.code === 'FST_ERR_CTP_EMPTY_JSON_BODY'
      ? 'request body is not valid JSON'
      : error.message;
    return sendOAuthError(reply, status, 'invalid_request', description);
  }
  const appError = toAppError(error, String(request.id));
  logConverted(request.log, error, appError, {}, 'protocol endpoint failed unexpectedly');
  return sendOAuthRefusal(reply, appError);
}
