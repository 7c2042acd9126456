/**
 * A protocol endpoint is a value, as an operation is (define.ts): the HTTP routes a standard fixes (OAuth,
 * OpenID Connect, SCIM, SAML) that do not fit the operation shape. A module lists its endpoints in its
 * manifest; the HTTP transport mounts them all (transports/http/endpoints.ts) and renders their answers and
 * refusals. The handler sees a plain request and a HandlerContext, never a Fastify type, and runs in the
 * same unit of work as an operation (run-endpoint.ts, through invoke.ts runUnitOfWork): after-commit work, afterRollback, refusal
 * logging (docs/architecture.md#one-operation-three-protocols).
 */
import type { Deps } from '../kernel/deps.ts';
import { AppError } from '../kernel/errors.ts';
import type { LimitBucket } from '../kernel/limits.ts';
import type { HandlerContext } from './define.ts';

export type EndpointMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** What a handler sees of the request. */
export interface EndpointRequest {
  readonly method: EndpointMethod | 'HEAD';
  /** The path without the query string. */
  readonly path: string;
  /** The values of the path's named segments (`/saml/:org/sso` gives `org`), as sent, percent-decoded. */
  readonly params: Readonly<Record<string, string>>;
  readonly query: Readonly<Record<string, string | undefined>>;
  /**
   * The query string as sent, without its `?` (empty when there is none): a signature over the query itself,
   * as the SAML HTTP-Redirect binding's (SAML Bindings 3.4.4.1), is checked over these very bytes.
   */
  readonly rawQuery: string;
  /** Lower-case names, as Node reads them (a repeated header joined with commas, Set-Cookie a list). */
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  /** Read by the endpoint's body kind: an object for 'oauth', 'json' and 'form', empty for 'none'. */
  readonly body: Readonly<Record<string, unknown>>;
  /**
   * With body 'json': the JSON value as parsed, whatever its type (RFC 8259 section 2), so that the handler
   * names what is wrong with it; undefined when the request had no content.
   */
  readonly document?: unknown;
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
  /** A document of text in its own media type (SAML metadata: SAML Metadata section 4.1.1). */
  | (AnswerHeaders & { readonly kind: 'text'; readonly status?: number; readonly body: string; readonly contentType: string })
  /** A status and headers without a body (204 No Content, 304 Not Modified). */
  | (AnswerHeaders & { readonly kind: 'empty'; readonly status: number })
  /** A plain page of text, the look of the transport's refusal pages. */
  | (AnswerHeaders & { readonly kind: 'page' } & MessagePage)
  /** A page that submits `fields` to `action` by itself (OAuth 2.0 Form Post Response Mode section 2). */
  | (AnswerHeaders & { readonly kind: 'form-post'; readonly action: string; readonly fields: Readonly<Record<string, string>> })
  /**
   * A page for an iframe that posts `message` to its parent window at `targetOrigin` only, and that only that
   * origin may frame (web_message, docs/sdk-compatibility.md).
   */
  | (AnswerHeaders & { readonly kind: 'web-message'; readonly targetOrigin: string; readonly message: unknown });

/**
 * A redirect no cache keeps and no Referer repeats, for a URL that may carry a code, tokens, a SAML message
 * or a resume handle (RFC 6749 section 10.3).
 */
const NO_STORE_REDIRECT_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'cache-control': 'no-store',
  pragma: 'no-cache',
  'referrer-policy': 'no-referrer',
});

export function noStoreRedirect(location: string): EndpointAnswer {
  return { kind: 'redirect', location, status: 302, headers: NO_STORE_REDIRECT_HEADERS };
}

/** A page of text a browser reads: its title, heading and sentences, each escaped when written. */
export interface MessagePage {
  readonly status?: number;
  readonly title: string;
  readonly heading: string;
  readonly paragraphs: readonly string[];
}

/**
 * How a body is read. 'oauth': JSON or form-urlencoded, and text of either without a Content-Type
 * (docs/sdk-compatibility.md), and for a GET the query as parsed (OpenID Connect Core section 3.1.2.1: the
 * same parameters by either method; a repeated one a list, for the handler to refuse); 'json': a JSON
 * object (SCIM, RFC 7644 section 3.1); 'form': the parameters of a GET query or a POST body, each as parsed
 * (a repeated one a list, for the handler to refuse; a POST body that is not an object is refused); 'none':
 * not read.
 */
export type EndpointBodyKind = 'oauth' | 'json' | 'form' | 'none';

/**
 * A refusal as an endpoint whose errors are 'html' renders it: `reason` is the message of a refusal its
 * handler threw, absent when the request could not be read or failed unexpectedly (status 500).
 */
export interface HtmlRefusal {
  readonly status: number;
  readonly reason?: string;
  readonly requestId: string;
}

/**
 * A refusal an endpoint whose errors are 'html' shows as this very page, status included. Thrown rather than
 * answered when the handler's work must be undone: the unit of work then rolls back, drops its after-commit
 * work and runs the refusal's afterRollback (invoke.ts runUnitOfWork), as for any refusal.
 */
export class PageRefusal extends AppError {
  readonly page: MessagePage & { readonly status: number };

  constructor(page: MessagePage & { readonly status: number }, afterRollback?: () => Promise<void>) {
    super('failed_precondition', page.heading);
    this.page = page;
    this.afterRollback = afterRollback;
  }
}

/**
 * How refusals are written. 'oauth': RFC 6749 section 5.2 JSON, never cached; 'html': a page a browser
 * reads, the endpoint's refusalPage or a generic one; 'scim': RFC 7644 section 3.12 error bodies in
 * application/scim+json (a ScimError as thrown, another refusal by its kind).
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
  /**
   * Whether HEAD runs the GET handler and drops the body (RFC 9110 section 9.3.2); default true. False for a
   * GET with effects nobody would read (an authorization code issued, a consent spent): HEAD then answers
   * 405 with Allow and no body.
   */
  readonly head?: boolean;
  readonly csrf: CsrfRule;
  readonly body: EndpointBodyKind;
  readonly errors: EndpointErrorKind;
  /** With errors 'html': the page of each refusal, instead of the transport's generic one. */
  readonly refusalPage?: (refusal: HtmlRefusal) => MessagePage;
  /** A per-IP allowance spent before the handler runs (kernel/limits.ts), on top of the global one. */
  readonly rateLimit?: LimitBucket;
  /** Whether the endpoint is mounted at all with this configuration (default: always); unmounted, its path is 404. */
  readonly enabled?: (deps: Deps) => boolean;
  /** Runs the handler in a database transaction; default false (a unit of work forked on first use). */
  readonly transaction?: boolean;
  readonly handler: (request: EndpointRequest, ctx: HandlerContext) => Promise<EndpointAnswer>;
}

export type Endpoint = EndpointSpec;

export function defineEndpoint(spec: EndpointSpec): Endpoint {
  if (spec.methods.length === 0) throw new Error(`endpoint ${spec.name} serves no method`);
  return spec;
}

/** Requests that skip the Origin rule (transports/http/security.ts): an endpoint's methods at its path. */
export interface CsrfExemption {
  readonly methods: readonly EndpointMethod[];
  /** As the endpoint declares it: `:name` stands for one path segment, a final `*` for anything below. */
  readonly path: string;
}

/** The exemptions of the endpoints whose CSRF rule says exempt. */
export function csrfExemptions(endpoints: readonly Endpoint[]): CsrfExemption[] {
  return endpoints.filter((endpoint) => endpoint.csrf !== 'origin').map(({ methods, path }) => ({ methods, path }));
}
