/**
 * Shared pieces of the hostile-input tests: raw HTTP posts (bodies as text, so `__proto__` keys and
 * 10,000-deep nesting reach the server as written), the REST path of an operation, and a /healthz watcher
 * that measures how long the server takes to answer while other requests run.
 */
import type { AnyOperation } from '../../server/ops/define.ts';

export interface RawReply {
  status: number;
  text: string;
  body: any;
}

export async function postText(server: { baseUrl: string }, path: string, text: string, headers: Record<string, string> = {}): Promise<RawReply> {
  const res = await fetch(server.baseUrl + path, {
    method: 'POST',
    headers: { origin: server.baseUrl, 'content-type': 'application/json', ...headers },
    body: text,
  });
  const reply = await res.text();
  let body: unknown;
  try {
    body = JSON.parse(reply);
  } catch {
    body = undefined;
  }
  return { status: res.status, text: reply, body };
}

export function restPath(op: AnyOperation): { method: 'GET' | 'POST'; path: string } {
  const route = op.restRoute ?? { method: 'POST', path: op.admin ? `/v1/admin/${op.name}` : `/v1/${op.name}` };
  return { method: route.method === 'GET' ? 'GET' : 'POST', path: route.path };
}

/** `[[[...]]]` or `{"a":{"a":...}}` nested `depth` deep, as text (JSON.stringify would recurse). */
export function deepJson(depth: number, kind: 'list' | 'object' = 'list'): string {
  return kind === 'list' ? `${'['.repeat(depth)}${']'.repeat(depth)}` : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
}

export interface HealthWatch {
  /** The slowest answer in ms (as seen from this process, so it includes this process's own stalls). */
  slowest: number;
  answered: number;
  /** Polls that got no answer or a non-200 one. */
  failed: number;
}

/** Polls /healthz every `everyMs` until stopped; `stop()` resolves with what it saw. */
export function watchHealth(server: { baseUrl: string }, everyMs = 50): { stop(): Promise<HealthWatch> } {
  let running = true;
  const seen: HealthWatch = { slowest: 0, answered: 0, failed: 0 };
  const loop = (async () => {
    while (running) {
      const started = performance.now();
      try {
        const res = await fetch(`${server.baseUrl}/healthz`);
        await res.arrayBuffer();
        if (res.status === 200) seen.answered += 1;
        else seen.failed += 1;
      } catch {
        seen.failed += 1;
      }
      seen.slowest = Math.max(seen.slowest, performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, everyMs));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return seen;
    },
  };
}
