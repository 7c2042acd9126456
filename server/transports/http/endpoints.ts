/**
 * The HTTP adapter of the protocol endpoints (ops/endpoint.ts) of every module manifest
 * (modules/index.ts): turns the Fastify request into an EndpointRequest, runs the endpoint's pipeline
 * (ops/run-endpoint.ts), writes its answer, and renders refusals in the endpoint's error shape. Endpoints of
 * one error shape share a plugin scope, so that framework errors (a malformed body) answer in that shape too.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest, HTTPMethods } from 'fastify';
import type { Deps } from '../../kernel/deps.ts';
import { AppError } from '../../kernel/errors.ts';
import { OAuthError } from '../../kernel/oauth-error.ts';
import { MODULES, type ModuleManifest } from '../../modules/index.ts';
import { PageRefusal, csrfExemptions, type CsrfExemption, type Endpoint, type EndpointAnswer, type EndpointMethod, type EndpointRequest, type HtmlRefusal } from '../../ops/endpoint.ts';
import { runEndpoint } from '../../ops/run-endpoint.ts';
import { applyEffects, buildHttpContext } from './request-context.ts';
import { noStore, oauthErrorHandler, sendOAuthRefusal } from './oauth-refusals.ts';
import { readOAuthBody } from './oauth-body.ts';
import { sendFormPost, sendWebMessage } from './ui/response-pages.ts';
import { sendHtmlErrorPage, UNAVAILABLE_PAGE } from './ui/html-error-page.ts';
import { prepareScimScope, sendScimRefusal } from './scim-refusals.ts';

/** Every module's endpoints, in manifest order. */
export function moduleEndpoints(modules: readonly ModuleManifest[] = MODULES): Endpoint[] {
  return modules.flatMap((module) => module.endpoints);
}

/** The paths exempt from the Origin rule by their endpoints' CSRF rule (security.ts). */
export function endpointCsrfExemptions(modules: readonly ModuleManifest[] = MODULES): CsrfExemption[] {
  return csrfExemptions(moduleEndpoints(modules));
}

const ALL_METHODS: readonly EndpointMethod[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

const NO_PARAMETERS: Readonly<Record<string, string | undefined>> = Object.freeze({});

/** Query parameters as text: a repeated one keeps its first value, a non-text one reads as absent. */
function firstValues(record: Record<string, unknown>): Readonly<Record<string, string | undefined>> {
  let any = false;
  for (const _ in record) {
    any = true;
    break;
  }
  if (!any) return NO_PARAMETERS;
  const out: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(record)) {
    const first = Array.isArray(value) ? value[0] : value;
    out[name] = typeof first === 'string' ? first : undefined;
  }
  return out;
}

function bodyOf(endpoint: Endpoint, request: FastifyRequest): Record<string, unknown> {
  // The parameters of a GET are its query, as parsed: a repeated one is a list, for the handler to refuse.
  if (endpoint.body === 'oauth') return request.method === 'GET' ? ((request.query ?? {}) as Record<string, unknown>) : readOAuthBody(request.body);
  if (endpoint.body === 'form') return formParameters(request);
  const body = request.body;
  if (endpoint.body === 'json' && body && typeof body === 'object' && !Array.isArray(body)) return body as Record<string, unknown>;
  return {};
}

/** Whether a route is registered with exactly this method and path (the router is shared by every scope). */
function servesOn(scope: FastifyInstance): EndpointRequest['serves'] {
  return (method, path) => scope.hasRoute({ method, url: path });
}

/** The parameters of a GET query or a POST body as parsed, for body kind 'form'. */
function formParameters(request: FastifyRequest): Record<string, unknown> {
  const source = (request.method === 'POST' ? request.body : request.query) ?? {};
  if (typeof source !== 'object' || Array.isArray(source)) throw new AppError('invalid_argument', 'The request must be a form.');
  return source as Record<string, unknown>;
}

/** The plain request a handler sees; the cookies are those the context already parsed. */
export function endpointRequest(
  endpoint: Endpoint, request: FastifyRequest, cookies: Readonly<Record<string, string>>, serves: EndpointRequest['serves'],
): EndpointRequest {
  const queryAt = request.url.indexOf('?');
  return {
    method: request.method as EndpointRequest['method'],
    path: queryAt < 0 ? request.url : request.url.slice(0, queryAt),
    params: (request.params ?? NO_PARAMETERS) as Readonly<Record<string, string>>,
    query: firstValues((request.query ?? {}) as Record<string, unknown>),
    rawQuery: queryAt < 0 ? '' : request.url.slice(queryAt + 1),
    // Node's own object, not a copy: the token endpoint's hot path reads one header.
    headers: request.headers,
    body: bodyOf(endpoint, request),
    document: endpoint.body === 'json' ? request.body : undefined,
    cookies,
    ip: request.ip,
    requestId: String(request.id),
    serves,
  };
}

function writeAnswer(reply: FastifyReply, endpoint: Endpoint, answer: EndpointAnswer): FastifyReply {
  // RFC 6749 section 5.1: OAuth answers are never cached, successes as well as refusals.
  // A document meant to be cached (the discovery documents, RFC 8414 section 3) says so in its own header.
  if (endpoint.errors === 'oauth' && !answer.headers?.['cache-control']) noStore(reply);
  if (answer.headers) for (const [name, value] of Object.entries(answer.headers)) reply.header(name, value);
  switch (answer.kind) {
    case 'json':
      return reply.status(answer.status ?? 200).type(answer.contentType ?? 'application/json; charset=utf-8').send(answer.body);
    case 'redirect':
      return reply.redirect(answer.location, answer.status ?? 302);
    case 'html':
      return reply.status(answer.status ?? 200).type('text/html; charset=utf-8').send(answer.html);
    case 'text':
      return reply.status(answer.status ?? 200).type(answer.contentType).send(answer.body);
    case 'empty':
      return reply.status(answer.status).send();
    case 'page':
      return sendHtmlErrorPage(reply, answer.status ?? 200, answer);
    case 'form-post':
      return sendFormPost(reply, answer.action, answer.fields);
    case 'web-message':
      return sendWebMessage(reply, answer.targetOrigin, answer.message);
  }
}

/** The status of an 'html' endpoint's refusal: the caller's mistake is 400, the server's 500, an outage 503. */
function htmlRefusalStatus(refusal: AppError): number {
  if (refusal instanceof OAuthError) return refusal.status;
  switch (refusal.kind) {
    case 'internal':
      return 500;
    case 'unavailable':
      return 503;
    case 'too_many_requests':
      return 429;
    default:
      return 400;
  }
}

/** The page of an 'html' refusal by the endpoint's own renderer. */
function sendRefusalPage(reply: FastifyReply, endpoint: Endpoint, refusal: HtmlRefusal): FastifyReply {
  const page = endpoint.refusalPage!(refusal);
  return sendHtmlErrorPage(reply, page.status ?? refusal.status, page);
}

function sendRefusal(reply: FastifyReply, endpoint: Endpoint, refusal: AppError, requestId: string): FastifyReply {
  switch (endpoint.errors) {
    case 'oauth':
      return sendOAuthRefusal(reply, refusal);
    case 'html': {
      if (refusal instanceof PageRefusal) return sendHtmlErrorPage(reply, refusal.page.status, refusal.page);
      const status = htmlRefusalStatus(refusal);
      // RFC 6585 section 4: a 429 says how long to wait; RFC 9110 section 10.2.3: so may a 503.
      if (status === 429) reply.header('retry-after', String(refusal.retryAfterSeconds ?? 60));
      if (status === 503 && refusal.retryAfterSeconds !== undefined) reply.header('retry-after', String(refusal.retryAfterSeconds));
      // One page for an outage on every endpoint: the endpoints' own renderers know no "try again later".
      if (status === 503) return sendHtmlErrorPage(reply, status, UNAVAILABLE_PAGE);
      if (endpoint.refusalPage) return sendRefusalPage(reply, endpoint, { status, reason: status === 500 ? undefined : refusal.message, requestId });
      return sendHtmlErrorPage(reply, status, {
        title: 'Request not valid',
        heading: 'This request cannot be completed',
        paragraphs: [refusal.message],
      });
    }
    case 'scim':
      return sendScimRefusal(reply, refusal, requestId);
  }
}

function mount(scope: FastifyInstance, deps: Deps, endpoint: Endpoint): void {
  if (endpoint.enabled && !endpoint.enabled(deps)) return;
  const serves = servesOn(scope);
  const handler = async (request: FastifyRequest, reply: FastifyReply) => {
    const ctx = buildHttpContext(deps, request, 'http-endpoint');
    let answer: EndpointAnswer;
    try {
      answer = await runEndpoint(endpoint, ctx, endpointRequest(endpoint, request, ctx.credentials.cookies, serves));
    } catch (refusal) {
      return sendRefusal(reply, endpoint, refusal as AppError, String(request.id));
    }
    applyEffects(reply, ctx.effects);
    return writeAnswer(reply, endpoint, answer);
  };
  const allowed = endpoint.methods.join(', ');
  const refuseMethod = async (request: FastifyRequest, reply: FastifyReply) => {
    reply.header('allow', allowed);
    const refusal = new OAuthError(405, 'invalid_request', `${endpoint.path} accepts ${endpoint.methods.join(' and ')} only`);
    return sendRefusal(reply, endpoint, refusal, String(request.id));
  };
  const head = endpoint.head ?? true;
  const refuseHead = async (_request: FastifyRequest, reply: FastifyReply) => reply.header('allow', allowed).status(405).send();
  for (const url of [endpoint.path, ...(endpoint.alsoAt?.(deps) ?? [])]) {
    scope.route({ method: [...endpoint.methods] as HTTPMethods[], url, handler, exposeHeadRoute: head });
    if (!head && endpoint.methods.includes('GET')) scope.route({ method: 'HEAD', url, handler: refuseHead });
    if (!endpoint.refuseOtherMethods) continue;
    scope.route({ method: ALL_METHODS.filter((method) => !endpoint.methods.includes(method)) as HTTPMethods[], url, handler: refuseMethod });
  }
}

/** Mounts every module endpoint, one plugin scope per error shape. */
export async function registerModuleEndpoints(http: FastifyInstance, deps: Deps, modules: readonly ModuleManifest[] = MODULES): Promise<void> {
  const oauth = moduleEndpoints(modules).filter((endpoint) => endpoint.errors === 'oauth');
  const scim = moduleEndpoints(modules).filter((endpoint) => endpoint.errors === 'scim');
  const others = moduleEndpoints(modules).filter((endpoint) => endpoint.errors !== 'oauth' && endpoint.errors !== 'scim');
  if (oauth.length > 0) {
    await http.register(async (scope) => {
      scope.setErrorHandler(oauthErrorHandler);
      // Any other content type arrives as text and is read as JSON or form (oauth-body.ts).
      scope.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => done(null, body));
      for (const endpoint of oauth) mount(scope, deps, endpoint);
    });
  }
  if (scim.length > 0) {
    // SCIM error bodies and application/scim+json (RFC 7644 sections 3.1 and 3.12), malformed bodies included.
    await http.register(async (scope) => {
      prepareScimScope(scope);
      for (const endpoint of scim) mount(scope, deps, endpoint);
    });
  }
  for (const endpoint of others) {
    if (!endpoint.refusalPage) {
      mount(http, deps, endpoint);
      continue;
    }
    // A scope of its own, so that a request the framework refuses (a malformed body) gets the endpoint's page too.
    await http.register(async (scope) => {
      // Body kind 'oauth' reads text of any other content type as JSON or form, as in the OAuth scope above.
      if (endpoint.body === 'oauth') scope.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => done(null, body));
      scope.setErrorHandler((error: FastifyError, request, reply) => {
        const status = error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
        if (status === 500) request.log.error({ err: error, endpoint: endpoint.name }, 'endpoint failed unexpectedly');
        return sendRefusalPage(reply, endpoint, { status, requestId: String(request.id) });
      });
      mount(scope, deps, endpoint);
    });
  }
}
