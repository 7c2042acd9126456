/**
 * Probes the fleet outage tests send besides the load: requests from a chosen client address (through
 * HAProxy, which replaces X-Forwarded-For with the address it was called from, so the test connects from
 * another loopback address: Linux routes all of 127.0.0.0/8 to lo), per-IP limited look-ups, and the time
 * another instance takes to refuse a token revoked through one (docs/tokens.md#tokens-are-stateful).
 */
import { request } from 'node:http';
import assert from 'node:assert/strict';
import { LOAD_PASSWORD } from './load.ts';

export interface Answer {
  status: number;
  body: any;
}

/** POSTs JSON to `baseUrl + path`, connecting from `localAddress` when given. */
export function postJson(baseUrl: string, path: string, body: unknown, options: { localAddress?: string; token?: string } = {}): Promise<Answer> {
  const url = new URL(path, baseUrl);
  const payload = JSON.stringify(body);
  const headers: Record<string, string> = { origin: url.origin, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(payload)) };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers, localAddress: options.localAddress, agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => {
        let parsed: unknown = text;
        try {
          parsed = text ? JSON.parse(text) : undefined;
        } catch {
          // A proxy's error page: kept as text.
        }
        resolve({ status: res.statusCode ?? 0, body: parsed });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(payload);
  });
}

/**
 * `count` home-realm discovery look-ups (org_discovery: 30 a minute per client address,
 * modules/limits/policies.ts) from `localAddress`, one after the other; answers how many were served and
 * how many refused with 429, and throws on anything else.
 */
export async function orgDiscoveries(baseUrl: string, localAddress: string, count: number): Promise<{ served: number; refused: number }> {
  let served = 0;
  let refused = 0;
  for (let i = 0; i < count; i++) {
    const res = await postJson(baseUrl, '/v1/org_discovery', { email: `someone@probe-${i}.example.com` }, { localAddress });
    if (res.status === 200) served += 1;
    else if (res.status === 429) refused += 1;
    else throw new Error(`org_discovery answered ${res.status} ${JSON.stringify(res.body)}`);
  }
  return { served, refused };
}

/** Signs up an account through `baseUrl` and answers its id. */
export async function signUp(baseUrl: string, email: string): Promise<string> {
  const res = await postJson(baseUrl, '/v1/signup', { email, password: LOAD_PASSWORD, confirm_password: LOAD_PASSWORD });
  assert.equal(res.status, 200, `signup ${email}: ${JSON.stringify(res.body)}`);
  return res.body.user.id as string;
}

/** Logs in at one instance; answers the access token. */
export async function logIn(baseUrl: string, email: string): Promise<string> {
  const res = await postJson(baseUrl, '/v1/login', { email, password: LOAD_PASSWORD, scope: ['openid', 'email', 'profile'] });
  assert.equal(res.status, 200, `login ${email} at ${baseUrl}: ${JSON.stringify(res.body)}`);
  return res.body.access_token as string;
}

/** Whether the instance at `baseUrl` honours the access token (validate_jwt_token). */
export async function honours(baseUrl: string, token: string): Promise<boolean> {
  const res = await postJson(baseUrl, '/v1/validate_jwt_token', { token_type: 'access_token', token });
  if (res.status >= 500) throw new Error(`validate_jwt_token at ${baseUrl} answered ${res.status} ${JSON.stringify(res.body)}`);
  return res.status === 200 && res.body?.is_valid === true;
}

/** From the revocation's answer: when the first refused request was sent, and when it was answered. */
export interface Latency {
  sentMs: number;
  answeredMs: number;
  /** From this instance's last answer honouring the token to the revocation's answer. */
  sinceReadMs: number;
}

/** What an instance's cache trusts without a working broadcast (token-state-cache.ts DEFAULT_LIMITS.shortTrustMs). */
export const SHORT_TRUST_MS = 100;

/**
 * The refusal can only have come from the broadcast: the very first request after the revocation was refused
 * while the instance's cached answer, read less than SHORT_TRUST_MS before, would still have been trusted.
 */
export const heardBroadcast = (latency: Latency): boolean => latency.sentMs === 0 && latency.sinceReadMs < SHORT_TRUST_MS;

/** How long the last revocation's own request took (its answer waits for the broadcast, token-state-cache.ts). */
export let lastRevokeMs = 0;

/**
 * Checks that each of `others` honours `token` (so its cache holds the answer), runs `revoke` through another
 * instance, then asks each of `others` again at once and keeps asking. Answers, for each, when the first
 * refused request was sent, counted from the revoke's answer (0 when the very first one was refused: the
 * revocation had already reached it), and when its answer came (that plus the request's own time).
 */
export async function revocationLatencies(others: string[], token: string, revoke: () => Promise<void>, limitMs = 2000): Promise<Latency[]> {
  const readAt: number[] = [];
  for (const baseUrl of others) {
    assert.equal(await honours(baseUrl, token), true, `${baseUrl} honours the token before the revocation`);
    readAt.push(performance.now());
  }
  const sentAt = performance.now();
  await revoke();
  const revokedAt = performance.now();
  lastRevokeMs = Math.round(revokedAt - sentAt);
  return Promise.all(
    others.map(async (baseUrl, i) => {
      const sinceReadMs = Math.round(revokedAt - readAt[i]!);
      for (let first = true; ; first = false) {
        const askedAt = performance.now();
        if (!(await honours(baseUrl, token))) {
          return { sentMs: first ? 0 : Math.round(askedAt - revokedAt), answeredMs: Math.round(performance.now() - revokedAt), sinceReadMs };
        }
        if (performance.now() - revokedAt > limitMs) throw new Error(`${baseUrl} still honoured the revoked token after ${limitMs} ms`);
      }
    }),
  );
}

/** "0/12 ms" for each: the first refused request sent at, answered at, from the revocation's answer. */
export const describeLatencies = (latencies: Latency[]): string =>
  latencies.map((latency) => `${latency.sentMs}/${latency.answeredMs}`).join(', ');
