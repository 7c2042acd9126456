/**
 * GraphQL error shape: `{message, locations?, path?, extensions: {code}}` with the code from
 * GRAPHQL_ERROR_CODES (docs/errors.md). Three sources of errors:
 * - an operation's AppError: its kind and public message;
 * - a request the server cannot run (bad JSON, syntax, validation, variables): the caller's mistake, so the
 *   message is kept and the code is INVALID_ARGUMENT unless a validation rule chose another;
 * - anything else (an output the schema cannot serialise, a bug): a generic message naming the request id,
 *   the detail in the log only (the same rule as toAppError).
 */
import { GraphQLError, type GraphQLFormattedError } from 'graphql';
import type { Logger } from 'pino';
import { AppError, GRAPHQL_ERROR_CODES, logConverted, toAppError } from '../../kernel/errors.ts';
import { retryExtensions } from './refusal.ts';

export { graphqlRefusalBody } from './refusal.ts';

export interface ErrorScope {
  requestId: string;
  log: Logger;
  /** Told of each operation's AppError (the HTTP layer counts rate-limit refusals by route). */
  onAppError?: (error: AppError) => void;
}

function withCode(error: GraphQLError, code: string, message = error.message, keepExtensions = true, extra: Record<string, unknown> = {}): GraphQLFormattedError {
  const { locations, path } = error.toJSON();
  return {
    message,
    ...(locations ? { locations } : {}),
    ...(path ? { path } : {}),
    extensions: keepExtensions ? { ...error.extensions, code, ...extra } : { code, ...extra },
  };
}

function appErrorIn(error: Error): AppError | undefined {
  if (error instanceof AppError) return error;
  if (error instanceof GraphQLError && error.originalError) return appErrorIn(error.originalError);
  return undefined;
}

/** mercurius wraps parse and validation failures in one error whose `errors` lists the real ones. */
export function unwrapErrors(error: Error): Error[] {
  const inner = (error as { errors?: unknown }).errors;
  return Array.isArray(inner) && inner.length > 0 ? inner.filter((e): e is Error => e instanceof Error) : [error];
}

/** True when the error arose before any operation ran, so it is about the request itself. */
export function isRequestError(error: Error): boolean {
  if (appErrorIn(error)) return false;
  if (error instanceof GraphQLError) return error.path === undefined;
  const status = (error as { statusCode?: unknown }).statusCode;
  return typeof status === 'number' && status >= 400 && status < 500;
}

export function formatGraphqlError(error: Error, scope: ErrorScope): GraphQLFormattedError {
  const appError = appErrorIn(error);
  const graphqlError = error instanceof GraphQLError ? error : new GraphQLError(error.message);
  if (appError) {
    scope.onAppError?.(appError);
    return withCode(graphqlError, GRAPHQL_ERROR_CODES[appError.kind], appError.message, true, retryExtensions(appError));
  }
  if (isRequestError(error)) {
    const chosen = graphqlError.extensions.code;
    return withCode(graphqlError, typeof chosen === 'string' ? chosen : GRAPHQL_ERROR_CODES.invalid_argument);
  }
  const generic = toAppError(error, scope.requestId);
  logConverted(scope.log, error, generic, { requestId: scope.requestId }, 'GraphQL request failed unexpectedly');
  return withCode(graphqlError, GRAPHQL_ERROR_CODES[generic.kind], generic.message, false, retryExtensions(generic));
}

/** HTTP status of a reply refused before execution: the error's own 4xx (415, 413, ...) or 400. */
export function requestErrorStatus(error: Error): number {
  const status = (error as { statusCode?: unknown }).statusCode;
  return typeof status === 'number' && status >= 400 && status < 500 ? status : 400;
}
