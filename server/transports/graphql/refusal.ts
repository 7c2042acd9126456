/**
 * What the HTTP layer needs to know about GraphQL before anything GraphQL is loaded: the path, and the body
 * of a refusal decided before any route runs (rate limit, CSRF). Kept free of graphql-js at run time, so the
 * pre-route hooks do not load the GraphQL stack at start (it loads with the first /graphql request).
 */
import type { GraphQLFormattedError } from 'graphql';
import { GRAPHQL_ERROR_CODES, type AppError } from '../../kernel/errors.ts';

export const GRAPHQL_PATH = '/graphql';

/** extensions.retryAfter (seconds) for a refusal that names when to retry, as HTTP's Retry-After does. */
export function retryExtensions(error: AppError): Record<string, unknown> {
  return error.retryAfterSeconds === undefined ? {} : { retryAfter: error.retryAfterSeconds };
}

/** A whole reply refused before execution by an AppError (the per-IP limit): errors only, no data. */
export function graphqlRefusalBody(error: AppError): { errors: GraphQLFormattedError[] } {
  return { errors: [{ message: error.message, extensions: { code: GRAPHQL_ERROR_CODES[error.kind], ...retryExtensions(error) } }] };
}
