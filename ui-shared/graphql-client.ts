/**
 * The one API client of both frontends: POST /graphql on the page's own origin, the surface the SDK uses
 * (docs/api-overview.md#three-protocols-one-registry: GraphQL is the default and is mounted whatever --enable-grpc says).
 * Cookies ride along (same origin), so the login UI's session and the console's admin cookie authenticate the
 * calls; no token is ever kept in script-readable storage.
 *
 * A failed call throws ApiError with the server's own message and code (GraphQL `extensions.code`), so every
 * screen can show the server's words; transport failures get a plain sentence of their own.
 */

export class ApiError extends Error {
  /** GraphQL extensions.code, e.g. UNAUTHENTICATED, INVALID_ARGUMENT, TOO_MANY_REQUESTS; NETWORK when unreachable. */
  readonly code: string;
  /** Seconds to wait before retrying, when the server said so (rate limit). */
  readonly retryAfter?: number;

  constructor(message: string, code: string, retryAfter?: number) {
    super(message);
    this.name = 'ApiError';
    this.code = code;
    this.retryAfter = retryAfter;
  }
}

interface GraphqlError {
  message?: string;
  extensions?: { code?: string; retryAfter?: number };
}

interface GraphqlAnswer<T> {
  data?: T | null;
  errors?: GraphqlError[];
}

/** Where the API lives: the page's own origin (tests and embedded use), overridable for a dev server. */
let endpoint = '/graphql';

export function setGraphqlEndpoint(url: string): void {
  endpoint = url;
}

/**
 * Runs one GraphQL document. `signal` lets TanStack Query cancel a superseded search. The server's CSRF
 * rule (docs/api-overview.md#authentication) is met by the browser's own Origin header on this same-origin POST.
 */
export async function graphql<T>(query: string, variables?: Record<string, unknown>, signal?: AbortSignal): Promise<T> {
  let response: Response;
  try {
    response = await fetch(endpoint, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ query, variables: variables ?? {} }),
      signal,
    });
  } catch (err) {
    if (err instanceof DOMException && err.name === 'AbortError') throw err;
    throw new ApiError('The server could not be reached. Check your connection and try again.', 'NETWORK');
  }
  let answer: GraphqlAnswer<T>;
  try {
    answer = (await response.json()) as GraphqlAnswer<T>;
  } catch {
    throw new ApiError(`The server answered with an unexpected response (HTTP ${response.status}).`, 'BAD_RESPONSE');
  }
  const first = answer.errors?.[0];
  if (first) {
    throw new ApiError(first.message || 'The request failed.', first.extensions?.code ?? 'UNKNOWN', first.extensions?.retryAfter);
  }
  if (answer.data == null) throw new ApiError(`The server answered with no data (HTTP ${response.status}).`, 'BAD_RESPONSE');
  return answer.data;
}

/** A user-facing sentence for any thrown value (ApiError keeps the server's message). */
export function errorMessage(err: unknown): string {
  if (err instanceof ApiError) {
    if (err.code === 'TOO_MANY_REQUESTS' && err.retryAfter) return `${err.message} Try again in ${err.retryAfter} s.`;
    return err.message;
  }
  if (err instanceof Error && err.message) return err.message;
  return 'Something went wrong.';
}
