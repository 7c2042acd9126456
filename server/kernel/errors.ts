/**
 * One error type for the whole server. Handlers throw AppError with a kind; each transport maps the kind
 * with its own table (docs/architecture.md#one-operation-three-protocols; docs/errors.md).
 * `message` is public and must never carry secrets; `detail` goes to the log only.
 */
import { describeDriverError, redactSecrets } from '../storage/errors.ts';
import { isStoreUnavailable } from '../storage/unavailable.ts';

export const ERROR_KINDS = [
  'invalid_argument',
  'unauthenticated',
  'permission_denied',
  'not_found',
  'already_exists',
  'failed_precondition',
  'method_not_allowed',
  'too_many_requests',
  'unimplemented',
  /** The database or an upstream this server depends on (SMTP, SMS provider) did not answer; the caller may retry. */
  'unavailable',
  'internal',
] as const;

export type ErrorKind = (typeof ERROR_KINDS)[number];

export class AppError extends Error {
  readonly kind: ErrorKind;
  readonly detail?: unknown;
  /**
   * For too_many_requests: seconds until the caller may try again. HTTP sends it as Retry-After
   * (RFC 9110 section 10.2.3), gRPC as `retry-after` trailing metadata, GraphQL as extensions.retryAfter.
   */
  retryAfterSeconds?: number;
  /**
   * Work to do once the refusal has rolled back the transaction it was thrown in, such as the audit entry of
   * a refused sign-in, which must outlive that rollback. ops/invoke.ts and the browser sign-in routes run it
   * (runAfterRollback).
   */
  afterRollback?: () => Promise<void>;

  constructor(kind: ErrorKind, message: string, detail?: unknown) {
    super(message);
    this.name = 'AppError';
    this.kind = kind;
    this.detail = detail;
  }

  static tooManyRequests(message: string, retryAfterSeconds: number): AppError {
    const error = new AppError('too_many_requests', message);
    error.retryAfterSeconds = Math.max(1, Math.ceil(retryAfterSeconds));
    return error;
  }

  static invalid(message: string): AppError {
    return new AppError('invalid_argument', message);
  }

  static unauthenticated(message = 'unauthorized'): AppError {
    return new AppError('unauthenticated', message);
  }

  static forbidden(message = 'permission denied'): AppError {
    return new AppError('permission_denied', message);
  }

  static notFound(message: string): AppError {
    return new AppError('not_found', message);
  }

  static precondition(message: string): AppError {
    return new AppError('failed_precondition', message);
  }
}

/**
 * Runs a refusal's afterRollback work, if it has any. Its own failure is logged, never answered: the caller
 * still hears the refusal it earned.
 */
export async function runAfterRollback(err: unknown, log: { error(obj: object, msg: string): void }): Promise<void> {
  if (!(err instanceof AppError) || !err.afterRollback) return;
  const task = err.afterRollback;
  err.afterRollback = undefined;
  try {
    await task();
  } catch (failure) {
    log.error({ err: failure }, 'work after a refusal failed');
  }
}

/**
 * Anything that is not an AppError is hidden behind a generic message that names the request id, so a
 * caller can quote it and an operator can find the detail in the log (node-oidc-provider habit): an
 * unreachable database (storage/unavailable.ts) as `unavailable`, anything else as `internal`.
 */
export function toAppError(err: unknown, requestId: string): AppError {
  if (err instanceof AppError) return err;
  if (isStoreUnavailable(err)) return storeUnavailable(err, requestId);
  return new AppError('internal', `internal server error (request id ${requestId})`, err);
}

/**
 * Seconds a caller is asked to wait after the database failed to answer (RFC 9110 section 10.2.3
 * Retry-After): long enough for a restart or a failover to finish, short enough not to strand a login.
 */
export const STORE_UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

/**
 * The refusal of a request whose database (or the network to it) is unavailable: every protocol answers its
 * "try again later" (HTTP 503, gRPC UNAVAILABLE, OAuth temporarily_unavailable; docs/errors.md and
 * docs/deployment.md#when-the-database-is-down). The driver's error stays in `detail`, for the log only.
 */
export function storeUnavailable(cause: unknown, requestId: string): AppError {
  const error = new AppError('unavailable', `service temporarily unavailable, retry later (request id ${requestId})`, cause);
  error.retryAfterSeconds = STORE_UNAVAILABLE_RETRY_AFTER_SECONDS;
  return error;
}

/**
 * What the log says about a driver error behind an `unavailable` refusal: its first line and code, never
 * the error object itself (a connection error can quote its target, and the stack says nothing an
 * operator needs). One warning per refused request (docs/deployment.md#when-the-database-is-down).
 */
export function unavailableCause(err: unknown): { reason: string; code?: string } {
  const code = (err as { code?: unknown } | undefined)?.code;
  return { reason: redactSecrets(describeDriverError(err), []).slice(0, 300), ...(typeof code === 'string' ? { code } : {}) };
}

/**
 * The longest public error message any protocol sends (UTF-16 units). Messages are built short, but some
 * quote input (graphql-js echoes a bad variable's value); a gRPC status message travels in the
 * `grpc-message` trailer, where a large one exceeded the peer's header-list limit and the reply never
 * arrived. OWASP ASVS 5.0 V16.5: errors stay short; the full story is in the log under the request id.
 */
export const MAX_PUBLIC_MESSAGE = 1024;

/** `message` cut to MAX_PUBLIC_MESSAGE with an ellipsis, never splitting a surrogate pair. */
export function boundedMessage(message: string): string {
  if (message.length <= MAX_PUBLIC_MESSAGE) return message;
  let end = MAX_PUBLIC_MESSAGE - 3;
  const last = message.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return `${message.slice(0, end)}...`;
}

/** HTTP status and REST `code` per kind (docs/errors.md, docs/architecture.md table). */
export const HTTP_ERROR_MAP: Record<ErrorKind, { status: number; code: string }> = {
  invalid_argument: { status: 400, code: 'invalid_argument' },
  unauthenticated: { status: 401, code: 'unauthenticated' },
  permission_denied: { status: 403, code: 'permission_denied' },
  not_found: { status: 404, code: 'not_found' },
  already_exists: { status: 409, code: 'already_exists' },
  failed_precondition: { status: 400, code: 'failed_precondition' },
  method_not_allowed: { status: 405, code: 'method_not_allowed' },
  too_many_requests: { status: 429, code: 'resource_exhausted' },
  // An operation the protocol does not carry is the caller's mistake, so it answers 400, never 5xx.
  unimplemented: { status: 400, code: 'unimplemented' },
  unavailable: { status: 503, code: 'unavailable' },
  internal: { status: 500, code: 'internal' },
};

/** GraphQL `errors[].extensions.code` per kind. */
export const GRAPHQL_ERROR_CODES: Record<ErrorKind, string> = {
  invalid_argument: 'INVALID_ARGUMENT',
  unauthenticated: 'UNAUTHENTICATED',
  permission_denied: 'PERMISSION_DENIED',
  not_found: 'NOT_FOUND',
  already_exists: 'ALREADY_EXISTS',
  failed_precondition: 'FAILED_PRECONDITION',
  method_not_allowed: 'METHOD_NOT_ALLOWED',
  too_many_requests: 'TOO_MANY_REQUESTS',
  unimplemented: 'UNIMPLEMENTED',
  unavailable: 'UNAVAILABLE',
  internal: 'INTERNAL',
};

/** Reverse of the GraphQL table, used by tests and clients that need the kind back. */
export const KIND_BY_GRAPHQL_CODE: Record<string, ErrorKind> = Object.fromEntries(
  Object.entries(GRAPHQL_ERROR_CODES).map(([kind, code]) => [code, kind as ErrorKind]),
);

/**
 * Logs the error toAppError turned into `refusal`, once: a database outage as a warning with the driver's
 * one-line reason, anything else unexpected as an error with the whole error. An AppError thrown on purpose
 * is not logged here.
 */
export function logConverted(
  log: { error(obj: object, msg: string): void; warn(obj: object, msg: string): void },
  err: unknown,
  refusal: AppError,
  fields: object,
  message: string,
): void {
  if (refusal === err) return;
  if (refusal.kind === 'unavailable') log.warn({ ...fields, ...unavailableCause(err) }, 'unavailable: the database or the network to it did not answer; answered "retry later"');
  else log.error({ ...fields, err }, message);
}
