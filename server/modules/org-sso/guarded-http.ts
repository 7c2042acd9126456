/**
 * Outbound requests to an organization's IdP: addresses checked and pinned (upstream-address.ts), no
 * redirect followed (node:http never follows one; a 3xx is a failed answer), one deadline for the whole
 * exchange, DNS included, and the answer cut off at 1 MiB, so a slow or hostile IdP can neither hold a
 * request nor fill memory. Errors name what failed, never the IdP's body (it may carry tokens).
 */
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import { VERSION } from '../../config/parse.ts';
import { resolveUpstream, type PinnedAddress } from './upstream-address.ts';

const TIMEOUT_MS = 10_000;
const MAX_BODY_BYTES = 1024 * 1024;

/** An IdP that answered badly or not at all; the message is safe to log, never shown with details. */
export class IdpError extends Error {
  override readonly name = 'IdpError';
}

export interface IdpAnswer {
  status: number;
  body: Record<string, unknown>;
}

function pinnedLookup(addresses: PinnedAddress[]): LookupFunction {
  return ((_hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options?.all) callback(null, addresses.map((a) => ({ address: a.address, family: a.family })));
    else callback(null, addresses[0]!.address, addresses[0]!.family);
  }) as unknown as LookupFunction;
}

function readCapped(res: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    res.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        res.destroy();
        reject(new IdpError(`answer larger than ${MAX_BODY_BYTES} bytes`));
        return;
      }
      chunks.push(chunk);
    });
    res.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    res.on('error', reject);
  });
}

/** JSON, or form-encoded (some token endpoints still answer that way; RFC 6749 section 5.1 says JSON). */
function parseBody(text: string, contentType: string | undefined): Record<string, unknown> {
  if (contentType?.includes('application/x-www-form-urlencoded')) return Object.fromEntries(new URLSearchParams(text));
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
  } catch {
    // Reported below.
  }
  throw new IdpError('answer is not a JSON object');
}

export interface IdpRequest {
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  form?: URLSearchParams;
  allowPrivate: boolean;
}

export async function idpRequest(target: string, init: IdpRequest): Promise<IdpAnswer> {
  const url = new URL(target);
  const deadline = AbortSignal.timeout(TIMEOUT_MS);
  try {
    const addresses = await resolveUpstream(url, init.allowPrivate);
    const body = init.form?.toString();
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const res = await new Promise<IncomingMessage>((resolve, reject) => {
      const req = send(url, {
        method: init.method ?? 'GET',
        lookup: pinnedLookup(addresses),
        signal: deadline,
        headers: {
          accept: 'application/json',
          'user-agent': `portcullis/${VERSION}`,
          ...(body !== undefined ? { 'content-type': 'application/x-www-form-urlencoded', 'content-length': String(Buffer.byteLength(body)) } : {}),
          ...init.headers,
        },
      }, resolve);
      req.on('error', reject);
      req.end(body);
    });
    const text = await readCapped(res);
    return { status: res.statusCode ?? 0, body: parseBody(text, res.headers['content-type']) };
  } catch (err) {
    if (err instanceof IdpError) throw err;
    const name = (err as Error).name;
    if (name === 'RefusedUpstreamError') throw new IdpError((err as Error).message);
    throw new IdpError(`${url.host} unreachable: ${name === 'AbortError' ? 'timed out' : name}`);
  }
}
