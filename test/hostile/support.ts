/**
 * Shared pieces of the hostile-input tests: raw HTTP posts (bodies as text, so `__proto__` keys and
 * 10,000-deep nesting reach the server as written), the REST path of an operation, and a /healthz watcher
 * that measures how long the server takes to answer while other requests run.
 */
import type { TestServer } from '../support/app.ts';
import type { AnyOperation } from '../../server/ops/define.ts';

export interface RawReply {
  status: number;
  text: string;
  body: any;
}

export async function postText(server: TestServer, path: string, text: string, headers: Record<string, string> = {}): Promise<RawReply> {
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

/** Polls /healthz every `everyMs` until stopped; `stop()` resolves with the slowest answer in ms. */
export function watchHealth(server: TestServer, everyMs = 50): { stop(): Promise<number> } {
  let running = true;
  let slowest = 0;
  const loop = (async () => {
    while (running) {
      const started = performance.now();
      const res = await fetch(`${server.baseUrl}/healthz`);
      await res.arrayBuffer();
      slowest = Math.max(slowest, performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, everyMs));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return slowest;
    },
  };
}
