/**
 * A GraphQL error list kept small: graphql-js quotes the offending value in variable errors ("got invalid
 * value" followed by the whole 900 KB string) and reports one error per bad list item, so a reply could
 * echo the request back many times over. Each message is cut at MAX_ERROR_MESSAGE characters and the list
 * at MAX_ERRORS, the rest counted in a last error with the same code (OWASP ASVS 5.0 V16.5 error handling:
 * errors stay short and generic; the request can be found by its id in the log).
 */
import type { GraphQLFormattedError } from 'graphql';

export const MAX_ERROR_MESSAGE = 1024;
export const MAX_ERRORS = 10;

function cut(message: string): string {
  if (message.length <= MAX_ERROR_MESSAGE) return message;
  let end = MAX_ERROR_MESSAGE - 3;
  // Never split a surrogate pair.
  const last = message.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return `${message.slice(0, end)}...`;
}

export function boundedErrors(errors: readonly GraphQLFormattedError[]): GraphQLFormattedError[] {
  const shown = errors.slice(0, MAX_ERRORS).map((error) => (error.message.length > MAX_ERROR_MESSAGE ? { ...error, message: cut(error.message) } : error));
  const more = errors.length - shown.length;
  if (more > 0) {
    shown.push({ message: `and ${more} more errors`, extensions: { code: errors[MAX_ERRORS]!.extensions?.code ?? 'INVALID_ARGUMENT' } });
  }
  return shown;
}
