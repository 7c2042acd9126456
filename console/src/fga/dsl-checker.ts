/**
 * Asks the parser thread (dsl-worker.ts) for a model's problems. The worker is started on first use; a check
 * that takes longer than CHECK_TIMEOUT_MS ends it (OpenFGA's parser slows down sharply on deeply nested
 * rewrites, and the browser's thread is the admin's own) and the next check starts a fresh one. If the
 * worker cannot start at all, the answer says so and the server's check on save stays the authority.
 */
import type { DslProblem } from './dsl-diagnostics.ts';
import type { DslCheckRequest } from './dsl-worker.ts';

export const CHECK_TIMEOUT_MS = 5000;

export type DslCheck = { kind: 'checked'; problems: DslProblem[] } | { kind: 'too-slow' } | { kind: 'unavailable' };

interface Pending {
  resolve: (check: DslCheck) => void;
  timer: ReturnType<typeof setTimeout>;
}

let worker: Worker | undefined;
let nextId = 0;
const pending = new Map<number, Pending>();

function settleAll(check: DslCheck): void {
  for (const { resolve, timer } of pending.values()) {
    clearTimeout(timer);
    resolve(check);
  }
  pending.clear();
}

function stop(check: DslCheck): void {
  worker?.terminate();
  worker = undefined;
  settleAll(check);
}

function started(): Worker {
  if (worker) return worker;
  const created = new Worker(new URL('./dsl-worker.ts', import.meta.url), { type: 'module', name: 'fga-dsl-check' });
  created.onmessage = (event: MessageEvent<{ id: number; problems: DslProblem[] }>) => {
    const entry = pending.get(event.data.id);
    if (!entry) return;
    pending.delete(event.data.id);
    clearTimeout(entry.timer);
    entry.resolve({ kind: 'checked', problems: event.data.problems });
  };
  created.onerror = (event) => {
    event.preventDefault();
    stop({ kind: 'unavailable' });
  };
  worker = created;
  return created;
}

export function checkDsl(dsl: string): Promise<DslCheck> {
  return new Promise((resolve) => {
    let target: Worker;
    try {
      target = started();
    } catch {
      resolve({ kind: 'unavailable' });
      return;
    }
    const id = (nextId += 1);
    const timer = setTimeout(() => stop({ kind: 'too-slow' }), CHECK_TIMEOUT_MS);
    pending.set(id, { resolve, timer });
    target.postMessage({ id, dsl } satisfies DslCheckRequest);
  });
}
