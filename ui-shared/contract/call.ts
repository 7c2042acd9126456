/**
 * The typed call of any server operation from either frontend: `call('users', { pagination })` sends the
 * operation's generated GraphQL document (operations.ts, from the operation registry) over the one API client
 * (ui-shared/graphql-client.ts: POST /graphql on the page's origin, cookies attached) and answers the root
 * field's value. Input and output types are the generated ones, so a renamed or removed field fails the
 * UI typecheck instead of a journey.
 */
import { graphql } from '../graphql-client.ts';
import { OPERATION_DOCUMENTS, type OperationName, type Operations } from './operations.ts';

export type { OperationName, Operations } from './operations.ts';
export type Input<N extends OperationName> = Operations[N]['input'];
export type Output<N extends OperationName> = Operations[N]['output'];

/** The GraphQL variables carrying an operation's input, the way the server's schema takes its arguments. */
export function variablesOf(name: OperationName, input: object): Record<string, unknown> {
  const { wrap, flat } = OPERATION_DOCUMENTS[name];
  if (flat) return { ...input };
  if (wrap) return { [wrap]: input };
  return {};
}

/** Runs one operation; throws ApiError with the server's message and code when it refuses. */
export async function call<N extends OperationName>(name: N, input: Input<N>, signal?: AbortSignal): Promise<Output<N>> {
  const { document, field } = OPERATION_DOCUMENTS[name];
  const data = await graphql<Record<string, Output<N>>>(document, variablesOf(name, input), signal);
  return data[field]!;
}
