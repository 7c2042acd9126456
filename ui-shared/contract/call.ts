/**
 * The typed call of any server operation, as the console makes it: `call('users', { pagination })` sends the
 * operation's generated GraphQL document (from the operation registry) and answers the root field's value.
 * Input and output types are the generated ones, so a renamed or removed field fails the UI typecheck instead
 * of a journey. The login UI uses public-call.ts, which knows the public operations only.
 */
import { ADMIN_DOCUMENTS } from './admin-documents.ts';
import type { OperationName, Operations } from './operations.ts';
import { PUBLIC_DOCUMENTS } from './public-documents.ts';
import { send } from './send.ts';

export type { OperationName, Operations } from './operations.ts';
export type Input<N extends OperationName> = Operations[N]['input'];
export type Output<N extends OperationName> = Operations[N]['output'];

const DOCUMENTS = { ...PUBLIC_DOCUMENTS, ...ADMIN_DOCUMENTS };

/** Runs one operation; throws ApiError with the server's message and code when it refuses. */
export function call<N extends OperationName>(name: N, input: Input<N>, signal?: AbortSignal): Promise<Output<N>> {
  return send<Output<N>>(DOCUMENTS[name], input, signal);
}
