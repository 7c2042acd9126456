/**
 * The model editor's parser thread: OpenFGA's parser (dsl-diagnostics.ts) runs here, off the page's main
 * thread, so typing stays smooth whatever the model, and a parse that runs away can be ended by terminating
 * the worker (dsl-checker.ts). Served from this origin as its own file (CSP worker-src 'self').
 */
import { diagnoseDsl } from './dsl-diagnostics.ts';

export interface DslCheckRequest {
  id: number;
  dsl: string;
}

const scope = self as unknown as { onmessage: ((event: MessageEvent<DslCheckRequest>) => void) | null; postMessage(message: unknown): void };

scope.onmessage = (event) => {
  const { id, dsl } = event.data;
  scope.postMessage({ id, problems: diagnoseDsl(dsl) });
};
