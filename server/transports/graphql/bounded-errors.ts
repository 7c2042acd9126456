/**
 * A GraphQL error list kept small: graphql-js quotes the offending value in variable errors ("got invalid
 * value" followed by the whole 900 KB string) and reports one error per bad list item, so a reply could
 * echo the request back many times over. Each message is cut at MAX_PUBLIC_MESSAGE characters (kernel/errors.ts) and the list
 * at MAX_ERRORS, the rest counted in a last error with the same code (OWASP ASVS 5.0 V16.5 error handling:
 * errors stay short and generic; the request can be found by its id in the log).
 */
import type { GraphQLFormattedError } from 'graphql';
import { MAX_PUBLIC_MESSAGE, boundedMessage } from '../../kernel/errors.ts';

export const MAX_ERRORS = 10;

export function boundedErrors(errors: readonly GraphQLFormattedError[]): GraphQLFormattedError[] {
  const shown = errors.slice(0, MAX_ERRORS).map((error) => (error.message.length > MAX_PUBLIC_MESSAGE ? { ...error, message: boundedMessage(error.message) } : error));
  const more = errors.length - shown.length;
  if (more > 0) {
    shown.push({ message: `and ${more} more errors`, extensions: { code: errors[MAX_ERRORS]!.extensions?.code ?? 'INVALID_ARGUMENT' } });
  }
  return shown;
}
