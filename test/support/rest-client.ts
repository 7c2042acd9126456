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

/** The refresh grant at /oauth/token (RFC 6749 section 6) as the SDK sends it: JSON, the instance client id. */
export async function refreshGrant(server: TestServer, clientId: string, refreshToken: string): Promise<{ status: number; body: any }> {
  const res = await fetch(`${server.baseUrl}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: server.baseUrl },
    body: JSON.stringify({ grant_type: 'refresh_token', refresh_token: refreshToken, client_id: clientId }),
  });
  return { status: res.status, body: await res.json() };
}
