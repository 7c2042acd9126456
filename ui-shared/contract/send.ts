/**
 * Sends one operation's generated document (public-documents.ts, admin-documents.ts) over the one API client
 * (ui-shared/graphql-client.ts: POST /graphql on the page's origin, cookies attached) and answers the root
 * field's value. call.ts and public-call.ts type it for their sets of operations.
 */
import { graphql } from '../graphql-client.ts';
import type { OperationDocument } from './operations.ts';

/** The GraphQL variables carrying an operation's input, the way the server's schema takes its arguments. */
export function variablesOf(sent: OperationDocument, input: object): Record<string, unknown> {
  if (sent.flat) return { ...input };
  if (sent.wrap) return { [sent.wrap]: input };
  return {};
}

/** Throws ApiError with the server's message and code when it refuses. */
export async function send<T>(sent: OperationDocument, input: object, signal?: AbortSignal): Promise<T> {
  const data = await graphql<Record<string, T>>(sent.document, variablesOf(sent, input), signal);
  return data[sent.field]!;
}
