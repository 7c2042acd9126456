/**
 * The refusals of the /scim/v2/ endpoints (modules/scim), as RFC 7644 section 3.12 fixes them: the SCIM
 * error body in application/scim+json, never cached, with a Bearer challenge on 401 (RFC 6750 section 3)
 * and Retry-After on 429 (RFC 6585 section 4). A ScimError answers its own status and scimType, another
 * refusal by its kind, Fastify's own refusals (malformed JSON, a body over the limit, an unsupported media
 * type) by their status, and anything unexpected a 500 naming the request id. The endpoints share one plugin
 * scope with these rules and the SCIM body parsers (scim-body.ts), so a request refused before its handler
 * runs answers in the same shape.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, logConverted, toAppError } from '../../kernel/errors.ts';
import { SCIM_CONTENT_TYPE, ScimError, scimErrorBody } from '../../modules/scim/index.ts';
import { registerScimBodyParsers } from './scim-body.ts';

const KIND_STATUS: Partial<Record<AppError['kind'], [number, ScimError['scimType']]>> = {
  invalid_argument: [400, 'invalidValue'],
  failed_precondition: [400, 'invalidValue'],
  already_exists: [409, 'uniqueness'],
  not_found: [404, undefined],
  unauthenticated: [401, undefined],
  permission_denied: [403, undefined],
  too_many_requests: [429, undefined],
  // RFC 7644 section 3.12: 503 "Service is unavailable", here while the database is down (with Retry-After).
  unavailable: [503, undefined],
};

function sendScimError(reply: FastifyReply, error: ScimError): FastifyReply {
  if (error.status === 401) reply.header('www-authenticate', 'Bearer realm="scim"');
  return reply.status(error.status).type(SCIM_CONTENT_TYPE).header('cache-control', 'no-store').send(scimErrorBody(error));
}

/** Whether `error` is one of Fastify's own 4xx refusals, thrown before any handler ran. */
function frameworkStatus(error: Error): number | undefined {
  const status = (error as FastifyError).statusCode;
  return typeof status === 'number' && status >= 400 && status < 500 ? status : undefined;
}

/**
 * The SCIM answer of a refusal; undefined for one that is none of the above (the caller logs it). An
 * unexpected error has already been logged and turned into an internal AppError by the endpoint pipeline.
 */
function knownRefusal(reply: FastifyReply, error: Error): FastifyReply | undefined {
  if (error instanceof ScimError) return sendScimError(reply, error);
  if (error instanceof AppError) {
    const mapped = KIND_STATUS[error.kind];
    if (!mapped) return undefined;
    if (error.retryAfterSeconds) reply.header('retry-after', String(error.retryAfterSeconds));
    return sendScimError(reply, new ScimError(mapped[0], error.message, mapped[1]));
  }
  const status = frameworkStatus(error);
  return status === undefined ? undefined : sendScimError(reply, new ScimError(status, error.message, status === 400 ? 'invalidSyntax' : undefined));
}

function internalError(reply: FastifyReply, requestId: string): FastifyReply {
  return sendScimError(reply, new ScimError(500, `internal server error (request id ${requestId})`));
}

/** A refusal of a SCIM endpoint's pipeline (ops/run-endpoint.ts), in the SCIM error shape. */
export function sendScimRefusal(reply: FastifyReply, refusal: AppError, requestId: string): FastifyReply {
  return knownRefusal(reply, refusal) ?? internalError(reply, requestId);
}

/** The scope of the SCIM endpoints: its error rules and its body parsers. */
export function prepareScimScope(scope: FastifyInstance): void {
  scope.setErrorHandler((error: FastifyError | Error, request: FastifyRequest, reply: FastifyReply) => {
    const known = knownRefusal(reply, error);
    if (known) return known;
    const refusal = toAppError(error, String(request.id));
    logConverted(request.log, error, refusal, {}, 'SCIM request failed');
    return knownRefusal(reply, refusal) ?? internalError(reply, String(request.id));
  });
  registerScimBodyParsers(scope);
}
