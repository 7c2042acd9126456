/**
 * A protocol endpoint is a value, as an operation is (define.ts): the HTTP routes a standard fixes (OAuth,
 * OpenID Connect, SCIM, SAML) that do not fit the operation shape. A module lists its endpoints in its
 * manifest; the HTTP transport mounts them all (transports/http/endpoints.ts) and renders their answers and
 * refusals. The handler sees a plain request and a HandlerContext, never a Fastify type, and runs in the
 * same unit of work as an operation (run-endpoint.ts, through invoke.ts runUnitOfWork): after-commit work, afterRollback, refusal
 * logging (docs/architecture.md#one-operation-three-protocols).
 */
import type { Deps } from '../kernel/deps.ts';
import type { LimitBucket } from '../kernel/limits.ts';
import type { HandlerContext } from './define.ts';

export type EndpointMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** What a handler sees of the request. */
export interface EndpointRequest {
  readonly method: EndpointMethod | 'HEAD';
  /** The path without the query string. */
  readonly path: string;
  readonly query: Readonly<Record<string, string | undefined>>;
  /** Lower-case names, as Node reads them (a repeated header joined with commas, Set-Cookie a list). */
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  /** Read by the endpoint's body kind: an object for 'oauth' and 'json', empty for 'none'. */
  readonly body: Readonly<Record<string, unknown>>;
  readonly cookies: Readonly<Record<string, string>>;
  /** Client IP per --trusted-proxies (docs/configuration.md). */
  readonly ip: string;
  readonly requestId: string;
  /** Whether this server answers `method` at `path` (the discovery documents list only what answers). */
  readonly serves: (method: EndpointMethod, path: string) => boolean;
}

interface AnswerHeaders {
  /** Extra response headers (lower-case names). */
  readonly headers?: Readonly<Record<string, string>>;
}

/** What a handler answers; the transport writes it. Cookies go through ctx.effects, as for operations. */
export type EndpointAnswer =
  | (AnswerHeaders & { readonly kind: 'json'; readonly status?: number; readonly body: unknown; readonly contentType?: string })
  | (AnswerHeaders & { readonly kind: 'redirect'; readonly location: string; readonly status?: 302 | 303 })
  | (AnswerHeaders & { readonly kind: 'html'; readonly status?: number; readonly html: string })
  /** A page that submits `fields` to `action` by itself (OAuth 2.0 Form Post Response Mode section 2). */
  | (AnswerHeaders & { readonly kind: 'form-post'; readonly action: string; readonly fields: Readonly<Record<string, string>> });

/**
 * How a body is read. 'oauth': JSON or form-urlencoded, and text of either without a Content-Type
 * (docs/sdk-compatibility.md); 'json': a JSON object (SCIM, RFC 7644 section 3.1); 'none': not read.
 */
export type EndpointBodyKind = 'oauth' | 'json' | 'none';

/**
 * How refusals are written. 'oauth': RFC 6749 section 5.2 JSON, never cached; 'scim' and 'html' are the
 * shapes of the endpoints still in transports/http/protocol.
 */
export type EndpointErrorKind = 'oauth' | 'scim' | 'html';

/**
 * The CSRF rule: the default Origin rule of state-changing requests (transports/http/security.ts), or exempt,
 * saying why the endpoint is safe to call cross-site.
 */
export type CsrfRule = 'origin' | { readonly exempt: string };

export interface EndpointSpec {
  /** snake_case, for logs: names the endpoint as an operation's name does. */
  readonly name: string;
  readonly methods: readonly EndpointMethod[];
  readonly path: string;
  /** Further paths the same handler answers at, fixed by the configuration when the server starts. */
  readonly alsoAt?: (deps: Deps) => readonly string[];
  /** Other methods answer 405 with Allow (RFC 9110 section 15.5.6) in the error shape, instead of 404. */
  readonly refuseOtherMethods?: boolean;
  readonly csrf: CsrfRule;
  readonly body: EndpointBodyKind;
  readonly errors: EndpointErrorKind;
  /** A per-IP allowance spent before the handler runs (kernel/limits.ts), on top of the global one. */
  readonly rateLimit?: LimitBucket;
  /** Runs the handler in a database transaction; default false (a unit of work forked on first use). */
  readonly transaction?: boolean;
  readonly handler: (request: EndpointRequest, ctx: HandlerContext) => Promise<EndpointAnswer>;
}

export type Endpoint = EndpointSpec;

export function defineEndpoint(spec: EndpointSpec): Endpoint {
  if (spec.methods.length === 0) throw new Error(`endpoint ${spec.name} serves no method`);
  return spec;
}

/** Paths whose state-changing requests skip the Origin rule (transports/http/security.ts). */
export function csrfExemptPaths(endpoints: readonly Endpoint[]): string[] {
  return endpoints.filter((endpoint) => endpoint.csrf !== 'origin').map((endpoint) => endpoint.path);
}
