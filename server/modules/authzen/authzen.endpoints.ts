/**
 * The AuthZEN HTTPS JSON binding (AuthZEN 1.0 section 10.1; docs/authzen.md#endpoints): POST
 * /access/v1/evaluation, /evaluations, /search/subject, /search/resource and /search/action, each running
 * the handler of its operation (authzen.ops.ts) on the JSON body checked by the operation's own input schema,
 * so REST, GraphQL and gRPC answer alike.
 *
 * - The caller authenticates as a PDP client (pdp-client.ts); without a token, or with a token the PDP does
 *   not take, the answer is 401 with an RFC 6750 section 3 `WWW-Authenticate: Bearer` challenge.
 * - A request the PDP cannot read is 400 (section 10.1.1: a missing required attribute is a Bad Request).
 *   Error bodies are `{error, error_description}` (RFC 6749 section 5.2, as the server's other bearer-token
 *   endpoints answer); the description is the error message string of section 10.1.2.
 * - An `X-Request-ID` the PEP sends comes back on the answer, refusals included (section 10.1.3); one that is
 *   not a line of printable ASCII of at most 256 characters is not echoed.
 * - Answers are never cached: a decision is about this moment's tuples.
 * - Mounted only while FGA is on (a MongoDB main database without --fga-store has none); then the paths are 404.
 * - Rate limits: the per-IP limit of every route, and the permission-check budget of one request (docs/limits.md).
 */
import { AppError, HTTP_ERROR_MAP } from '../../kernel/errors.ts';
import { issuerOf } from '../tokens/index.ts';
import type { AnyOperation, HandlerContext, Operation } from '../../ops/define.ts';
import type { TObject } from '../../ops/schema.ts';
import { defineEndpoint, type Endpoint, type EndpointAnswer, type EndpointRequest } from '../../ops/endpoint.ts';
import { parseInput, shapeOutput } from '../../ops/validate.ts';
import { PDP_BASE_PATH, pdpClientAuthenticator } from './pdp-client.ts';
import {
  authzenEvaluationOp, authzenEvaluationsOp, authzenSearchActionOp, authzenSearchResourceOp, authzenSearchSubjectOp,
} from './authzen.ops.ts';

/** An operation with its schemas erased, as the registry keeps it (its input is checked by its own schema). */
function erased<I extends TObject, O extends TObject>(op: Operation<I, O>): AnyOperation {
  return op as unknown as AnyOperation;
}

/** The endpoints the binding defines (AuthZEN 1.0 section 10.1, table of endpoints), with their operations. */
export const PDP_ENDPOINTS: readonly { metadata: string; path: string; op: AnyOperation }[] = [
  { metadata: 'access_evaluation_endpoint', path: `${PDP_BASE_PATH}/evaluation`, op: erased(authzenEvaluationOp) },
  { metadata: 'access_evaluations_endpoint', path: `${PDP_BASE_PATH}/evaluations`, op: erased(authzenEvaluationsOp) },
  { metadata: 'search_subject_endpoint', path: `${PDP_BASE_PATH}/search/subject`, op: erased(authzenSearchSubjectOp) },
  { metadata: 'search_resource_endpoint', path: `${PDP_BASE_PATH}/search/resource`, op: erased(authzenSearchResourceOp) },
  { metadata: 'search_action_endpoint', path: `${PDP_BASE_PATH}/search/action`, op: erased(authzenSearchActionOp) },
];

const REQUEST_ID = /^[\x20-\x7e]{1,256}$/;

/** The PEP's request identifier to echo, when it is one a header can carry back unchanged. */
function requestIdOf(request: EndpointRequest): string | undefined {
  const value = request.headers['x-request-id'];
  return typeof value === 'string' && REQUEST_ID.test(value) ? value : undefined;
}

/** RFC 6750 section 3: auth-param values are quoted strings of printable ASCII without quotes. */
function quoted(text: string): string {
  return `"${text.replace(/[^\x20-\x7e]|["\\]/g, '')}"`;
}

/** A refusal as the binding answers it (section 10.1.2), with the headers every answer carries. */
function refusal(err: AppError, ctx: HandlerContext, headers: Record<string, string>): EndpointAnswer {
  const status = HTTP_ERROR_MAP[err.kind].status;
  if (err.kind === 'unauthenticated') {
    const realm = `realm=${quoted(issuerOf(ctx.deps.config))}`;
    // RFC 6750 section 3.1: a request that presented no token gets a challenge without an error code.
    if (!ctx.credentials.bearer) {
      return { kind: 'json', status, body: { error_description: err.message }, headers: { ...headers, 'www-authenticate': `Bearer ${realm}` } };
    }
    const challenge = `Bearer ${realm}, error="invalid_token", error_description=${quoted(err.message)}`;
    return { kind: 'json', status, body: { error: 'invalid_token', error_description: err.message }, headers: { ...headers, 'www-authenticate': challenge } };
  }
  const extra: Record<string, string> = err.kind === 'too_many_requests' ? { 'retry-after': String(err.retryAfterSeconds ?? 60) } : {};
  const code = status >= 500 ? 'temporarily_unavailable' : 'invalid_request';
  return { kind: 'json', status, body: { error: code, error_description: err.message }, headers: { ...headers, ...extra } };
}

function pdpEndpoint(name: string, path: string, op: AnyOperation): Endpoint {
  return defineEndpoint({
    name,
    methods: ['POST'],
    path,
    refuseOtherMethods: true,
    csrf: { exempt: 'called by policy enforcement points without Origin; the credential is a bearer token, not an ambient cookie' },
    body: 'json',
    errors: 'oauth',
    enabled: (deps) => deps.fga !== undefined,
    async handler(request, ctx) {
      const requestId = requestIdOf(request);
      const headers: Record<string, string> = { 'cache-control': 'no-store', ...(requestId ? { 'x-request-id': requestId } : {}) };
      try {
        ctx.caller = await pdpClientAuthenticator(ctx);
        const document = request.document;
        if (document === null || typeof document !== 'object' || Array.isArray(document)) {
          throw AppError.invalid('the body must be a JSON object sent as Content-Type: application/json');
        }
        const input = parseInput<Record<string, unknown>>(op.input, document);
        const body = shapeOutput<Record<string, unknown>>(op.output, await op.handler(input, ctx));
        return { kind: 'json', body, headers };
      } catch (err) {
        // Anything unexpected is the transport's 500, logged with the request id.
        if (!(err instanceof AppError) || err.kind === 'internal') throw err;
        ctx.log.debug({ endpoint: name, kind: err.kind, msg: err.message }, 'authzen request refused');
        return refusal(err, ctx, headers);
      }
    },
  });
}

export const authzenEndpoints: Endpoint[] = PDP_ENDPOINTS.map(({ path, op }) => pdpEndpoint(op.name.replace('authzen_', 'pdp_'), path, op));
