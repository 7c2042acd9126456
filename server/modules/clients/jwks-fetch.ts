/**
 * One fetch of a trusted issuer's JWKS (RFC 7517 section 5). Any anonymous jwt-bearer request can make the
 * server send it, so it is guarded as every request a remote party steers (OWASP SSRF Prevention Cheat
 * Sheet): the host is resolved once and checked by the outbound address policy (kernel/outbound-address.ts),
 * and the socket dials exactly the addresses checked, so a name that DNS points at loopback, the LAN or a
 * cloud metadata service, now or in a second answer, is never reached. No redirect is followed (node:http
 * never does; RFC 7517 section 9.4 asks for key provenance), one deadline covers DNS, connect and body, and
 * the body is capped. Failures are JwksUnavailableError: their message is for the log, and names neither
 * the URL nor the address (assertions.ts answers callers with a generic refusal).
 */
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { JSONWebKeySet } from 'jose';
import { VERSION } from '../../config/parse.ts';
import {
  InternalAddressError, pinnedLookup, resolvePinned, systemResolver, type HostResolver, type PinnedAddress,
} from '../../kernel/outbound-address.ts';

export const FETCH_TIMEOUT_MS = 5_000;
export const MAX_JWKS_BYTES = 256 * 1024;

export class JwksUnavailableError extends Error {}

export interface JwksFetchOptions {
  /** --trusted-issuer-allow-private-addresses: reach internal addresses too (tests, closed networks). */
  allowPrivate?: boolean;
  /** The one resolution of the host (default: the system resolver). */
  resolve?: HostResolver;
  timeoutMs?: number;
  maxBytes?: number;
}

function beforeDeadline<T>(work: Promise<T>, deadline: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const abort = () => reject(deadline.reason);
    if (deadline.aborted) return abort();
    deadline.addEventListener('abort', abort, { once: true });
    work.then(resolve, reject).finally(() => deadline.removeEventListener('abort', abort));
  });
}

function get(url: URL, addresses: readonly PinnedAddress[], deadline: AbortSignal): Promise<IncomingMessage> {
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = send(url, {
      method: 'GET',
      lookup: pinnedLookup(addresses),
      signal: deadline,
      headers: { accept: 'application/jwk-set+json, application/json', 'user-agent': `portcullis/${VERSION}` },
    }, resolve);
    req.on('error', reject);
    req.end();
  });
}

function readCapped(res: IncomingMessage, maxBytes: number): Promise<string> {
  if (Number(res.headers['content-length'] ?? '0') > maxBytes) {
    res.destroy();
    return Promise.reject(new JwksUnavailableError('the JWKS document is too large'));
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    res.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        res.destroy();
        reject(new JwksUnavailableError('the JWKS document is too large'));
        return;
      }
      chunks.push(chunk);
    });
    res.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    res.on('error', reject);
  });
}

async function download(url: string, options: JwksFetchOptions): Promise<string> {
  const deadline = AbortSignal.timeout(options.timeoutMs ?? FETCH_TIMEOUT_MS);
  try {
    const target = new URL(url);
    const addresses = await beforeDeadline(resolvePinned(target.hostname, options.allowPrivate ?? false, options.resolve ?? systemResolver), deadline);
    const res = await get(target, addresses, deadline);
    if (res.statusCode !== 200) {
      res.resume();
      const status = res.statusCode ?? 0;
      if (status >= 300 && status < 400) throw new JwksUnavailableError('the trusted issuer\'s JWKS could not be fetched: redirects are not followed');
      throw new JwksUnavailableError(`the trusted issuer's JWKS answered HTTP ${status}`);
    }
    return await readCapped(res, options.maxBytes ?? MAX_JWKS_BYTES);
  } catch (err) {
    if (err instanceof JwksUnavailableError) throw err;
    if (err instanceof InternalAddressError) throw new JwksUnavailableError(`the trusted issuer's JWKS URL was refused: ${err.message}`);
    throw new JwksUnavailableError('the trusted issuer\'s JWKS could not be fetched');
  }
}

/** Fetches and parses one JWKS document; throws JwksUnavailableError. */
export async function fetchJwks(url: string, options: JwksFetchOptions = {}): Promise<JSONWebKeySet> {
  const text = await download(url, options);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new JwksUnavailableError('the trusted issuer\'s JWKS is not JSON');
  }
  if (!parsed || typeof parsed !== 'object' || !Array.isArray((parsed as JSONWebKeySet).keys)) {
    throw new JwksUnavailableError('the trusted issuer\'s JWKS has no keys array');
  }
  // Only public members matter for verification; a published private key ("d") is not used as one.
  const keys = (parsed as JSONWebKeySet).keys.filter((key) => key && typeof key === 'object' && !('d' in key));
  return { keys };
}
