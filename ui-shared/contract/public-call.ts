/**
 * The typed call of the public operations, as the login UI makes it (call.ts has every operation): the
 * admin operations' documents stay out of the login UI's bundle, and naming one fails its typecheck.
 */
import type { Operations, PublicOperationName } from './operations.ts';
import { PUBLIC_DOCUMENTS } from './public-documents.ts';
import { send } from './send.ts';

export type Input<N extends PublicOperationName> = Operations[N]['input'];
export type Output<N extends PublicOperationName> = Operations[N]['output'];

/** Runs one public operation; throws ApiError with the server's message and code when it refuses. */
export function call<N extends PublicOperationName>(name: N, input: Input<N>, signal?: AbortSignal): Promise<Output<N>> {
  return send<Output<N>>(PUBLIC_DOCUMENTS[name], input, signal);
}
