/**
 * REST error envelope `{code, message}` with the HTTP statuses of docs/errors.md. Fastify's own
 * client errors (malformed JSON, wrong content type, body too large) keep their 4xx status in that shape;
 * anything unexpected becomes a generic 500 naming the request id, with the detail in the log only.
 */
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, HTTP_ERROR_MAP, boundedMessage, logConverted, toAppError } from '../../kernel/errors.ts';
import { limitBucketOf, type LimitBucket } from '../../kernel/limits.ts';
import { GRAPHQL_PATH, graphqlRefusalBody } from '../graphql/refusal.ts';

/** The limit bucket that refused a request, for the onResponse hook's rate-limited counter. */
const limitedBuckets = new WeakMap<FastifyRequest, LimitBucket>();

export function noteLimited(request: FastifyRequest, error: unknown): void {
  const bucket = limitBucketOf(error);
  if (bucket) limitedBuckets.set(request, bucket);
}

export function limitedBucket(request: FastifyRequest): LimitBucket | undefined {
  return limitedBuckets.get(request);
}

/** RFC 9110 section 10.2.3 (RFC 6585 section 4 for 429): seconds until the caller may try again. */
export function setRetryAfter(reply: FastifyReply, error: AppError): void {
  if (error.retryAfterSeconds !== undefined) reply.header('retry-after', String(error.retryAfterSeconds));
}

export function sendAppError(reply: FastifyReply, error: AppError): FastifyReply {
  const { status, code } = HTTP_ERROR_MAP[error.kind];
  setRetryAfter(reply, error);
  noteLimited(reply.request, error);
  return reply.status(status).type('application/json; charset=utf-8').send({ code, message: boundedMessage(error.message) });
}

/**
 * A refusal from a hook that runs before any route (rate limit, CSRF): REST's `{code, message}`, except on
 * /graphql, whose every reply is GraphQL-shaped JSON (docs/sdk-compatibility.md), refusals included.
 */
export function sendRefusal(request: FastifyRequest, reply: FastifyReply, error: AppError): FastifyReply {
  if (request.url.split('?')[0] !== GRAPHQL_PATH) return sendAppError(reply, error);
  setRetryAfter(reply, error);
  noteLimited(request, error);
  return reply.status(HTTP_ERROR_MAP[error.kind].status).type('application/json; charset=utf-8').send(graphqlRefusalBody(error));
}

function clientErrorCode(status: number): string {
  if (status === 401) return 'unauthenticated';
  if (status === 403) return 'permission_denied';
  if (status === 404) return 'not_found';
  if (status === 405) return 'method_not_allowed';
  if (status === 429) return 'resource_exhausted';
  return 'invalid_argument';
}

export function httpErrorHandler(error: FastifyError | AppError, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  if (error instanceof AppError) return sendAppError(reply, error);
  const status = (error as FastifyError).statusCode;
  if (status !== undefined && status >= 400 && status < 500) {
    return reply.status(status).send({ code: clientErrorCode(status), message: boundedMessage(error.message) });
  }
  const refusal = toAppError(error, String(request.id));
  logConverted(request.log, error, refusal, {}, 'unexpected error');
  return sendAppError(reply, refusal);
}

export function notFoundHandler(request: FastifyRequest, reply: FastifyReply): FastifyReply {
  return sendAppError(reply, AppError.notFound(`no route for ${request.method} ${request.url.split('?')[0]}`));
}
