/**
 * One outbound webhook request (docs/events.md), hardened against SSRF (OWASP SSRF Prevention Cheat
 * Sheet): the host is resolved once and checked (address-policy.ts), and the socket connects to those very
 * addresses through a custom `lookup`, so DNS rebinding cannot swap the target between check and connect.
 * Redirects are not followed (node:http never does; a 3xx is just a non-2xx answer). The whole exchange,
 * DNS included, has one deadline, and the answer is read up to a cap and then cut off.
 */
import { request as httpRequest, Agent as HttpAgent, type IncomingMessage } from 'node:http';
import { request as httpsRequest, Agent as HttpsAgent } from 'node:https';
import type { LookupFunction } from 'node:net';
import { createHmac } from 'node:crypto';
import { resolveEndpoint, type ResolvedAddress } from './address-policy.ts';

/** docs/events.md: one WebhookLog per attempt, response capped at 1 MiB. */
export const MAX_RESPONSE_BYTES = 1024 * 1024;

export interface SendOptions {
  timeoutMs: number;
  allowPrivate: boolean;
  maxResponseBytes?: number;
  /** Aborts the attempt from outside (the worker stopping). */
  cancel?: AbortSignal;
  /** Keep-alive connections to reuse (the delivery worker's); without it each request has a connection of its own. */
  agents?: WebhookAgents;
}

/** Agents kept at most; the least recently used one beyond this is closed. */
const MAX_AGENTS = 256;
/**
 * Idle sockets close after this: below the 5 s keep-alive timeout of Node's HTTP server and most proxies,
 * so a socket is not reused just as the receiver closes it (RFC 9112 section 9.3.1 allows either side to).
 */
const IDLE_SOCKET_MS = 4000;

/**
 * Keep-alive agents of the delivery worker, one per origin AND checked address set: a pooled socket was
 * opened to addresses checked for that very host name, so reusing it can never carry a request to an
 * address checked for another name (the SSRF rule of this file), and a changed DNS answer gets new sockets.
 */
export class WebhookAgents {
  readonly #agents = new Map<string, HttpAgent>();
  readonly #maxSocketsPerHost: number;

  constructor(maxSocketsPerHost: number) {
    this.#maxSocketsPerHost = Math.max(1, maxSocketsPerHost);
  }

  agentFor(url: URL, addresses: readonly ResolvedAddress[]): HttpAgent {
    const key = `${url.protocol}//${url.host}|${addresses.map((a) => a.address).join(',')}`;
    let agent = this.#agents.get(key);
    if (agent) {
      this.#agents.delete(key);
    } else {
      const Agent = url.protocol === 'https:' ? HttpsAgent : HttpAgent;
      agent = new Agent({ keepAlive: true, maxSockets: this.#maxSocketsPerHost, maxFreeSockets: this.#maxSocketsPerHost, timeout: IDLE_SOCKET_MS });
      if (this.#agents.size >= MAX_AGENTS) {
        const [oldestKey, oldest] = this.#agents.entries().next().value!;
        this.#agents.delete(oldestKey);
        oldest.destroy();
      }
    }
    this.#agents.set(key, agent);
    return agent;
  }

  close(): void {
    for (const agent of this.#agents.values()) agent.destroy();
    this.#agents.clear();
  }
}

export interface SendResult {
  status: number;
  /** The answer's body as text, at most maxResponseBytes of it. */
  text: string;
}

/** docs/events.md: X-Service-Signature = hex(HMAC-SHA256(client secret, raw body)). */
export function signBody(clientSecret: string, body: string): string {
  return createHmac('sha256', clientSecret).update(body, 'utf8').digest('hex');
}

/** A socket lookup that only ever answers the addresses already checked. */
function pinnedLookup(addresses: ResolvedAddress[]): LookupFunction {
  return ((_hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options?.all) callback(null, addresses.map((a) => ({ address: a.address, family: a.family })));
    else callback(null, addresses[0]!.address, addresses[0]!.family);
  }) as unknown as LookupFunction;
}

function readCapped(res: IncomingMessage, cap: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      // A cut may split a UTF-8 sequence; the decoder replaces the broken tail instead of throwing.
      resolve(new TextDecoder('utf-8', { fatal: false }).decode(Buffer.concat(chunks)).replaceAll('\u0000', ''));
    };
    res.on('data', (chunk: Buffer) => {
      if (done) return;
      const room = cap - size;
      chunks.push(chunk.length > room ? chunk.subarray(0, room) : chunk);
      size += Math.min(chunk.length, room);
      if (size >= cap) {
        finish();
        res.destroy();
      }
    });
    res.on('end', finish);
    res.on('error', (err) => (done ? undefined : reject(err)));
    res.on('close', finish);
  });
}

/**
 * POSTs `body` (already serialised: the signature covers these exact bytes) to `endpoint` with `headers`.
 * Rejects on a refused address (RefusedAddressError), a network failure or the deadline.
 */
export async function postWebhook(endpoint: string, body: string, headers: Record<string, string>, options: SendOptions): Promise<SendResult> {
  const url = new URL(endpoint);
  const deadline = AbortSignal.timeout(options.timeoutMs);
  const signal = options.cancel ? AbortSignal.any([deadline, options.cancel]) : deadline;
  const addresses = await Promise.race([
    resolveEndpoint(url.hostname, options.allowPrivate),
    new Promise<never>((_resolve, reject) => signal.addEventListener('abort', () => reject(signal.reason), { once: true })),
  ]);
  const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise<SendResult>((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        headers: { ...headers, 'content-length': Buffer.byteLength(body) },
        lookup: pinnedLookup(addresses),
        // Without the worker's agents a fresh connection per attempt; with them a socket pooled for exactly
        // these checked addresses (WebhookAgents).
        agent: options.agents ? options.agents.agentFor(url, addresses) : false,
        signal,
      },
      (res) => {
        readCapped(res, options.maxResponseBytes ?? MAX_RESPONSE_BYTES).then(
          (text) => resolve({ status: res.statusCode ?? 0, text }),
          reject,
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** A reason for a failed attempt that is safe to store and log: no URL, header or body. */
export function failureReason(err: unknown): string {
  if (!(err instanceof Error)) return 'request failed';
  if (err.name === 'RefusedAddressError') return err.message;
  if (err.name === 'TimeoutError' || err.name === 'AbortError') return 'timed out';
  const code = (err as { code?: string }).code;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'host name not found';
  if (code) return `connection failed (${code})`;
  return 'request failed';
}
