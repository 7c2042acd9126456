/** A tiny REST client for tests: real fetch, Origin set (CSRF rule), JSON in and out, cookies kept. */
import type { TestServer } from './app.ts';

export interface RestReply {
  status: number;
  body: any;
  cookies: string[];
}

export function restClient(server: TestServer, defaults: Record<string, string> = {}) {
  async function send(method: 'GET' | 'POST', path: string, body?: unknown, headers: Record<string, string> = {}): Promise<RestReply> {
    const res = await fetch(server.baseUrl + path, {
      method,
      headers: { origin: server.baseUrl, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...defaults, ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined, cookies: res.headers.getSetCookie() };
  }
  return {
    get: (path: string, headers?: Record<string, string>) => send('GET', path, undefined, headers),
    post: (path: string, body: unknown = {}, headers?: Record<string, string>) => send('POST', path, body, headers),
  };
}

/** `name=value` of a Set-Cookie list, for a Cookie header. */
export function cookieValue(cookies: string[], name: string): string | undefined {
  const found = cookies.find((c) => c.startsWith(`${name}=`));
  return found?.split(';')[0]!.slice(name.length + 1);
}
