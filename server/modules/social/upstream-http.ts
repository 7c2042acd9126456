/**
 * Outbound calls to a social sign-in upstream: a time limit and a size cap on every answer, so a slow or
 * hostile upstream can neither hold a request open nor fill memory, and errors that name what failed without
 * echoing the upstream's body (it may carry tokens) into logs or pages.
 */
import { VERSION } from '../../config/parse.ts';
import { readCappedText } from '../../kernel/read-capped.ts';

const TIMEOUT_MS = 10_000;
const MAX_BODY_BYTES = 1024 * 1024;

/** An upstream that answered badly or not at all; the message is safe to log, never to show with details. */
export class UpstreamError extends Error {}

/** JSON, or a form-encoded body (some token endpoints still answer that way; RFC 6749 section 5.1 says JSON). */
function parseBody(text: string, contentType: string | null): Record<string, unknown> {
  if (contentType?.includes('application/x-www-form-urlencoded')) return Object.fromEntries(new URLSearchParams(text));
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed && typeof parsed === 'object') return parsed as Record<string, unknown>;
  } catch {
    // Reported below.
  }
  throw new UpstreamError('answer is not a JSON object');
}

export interface UpstreamAnswer {
  status: number;
  body: Record<string, unknown>;
}

export async function upstreamRequest(url: string, init: { method?: 'GET' | 'POST'; headers?: Record<string, string>; form?: URLSearchParams } = {}): Promise<UpstreamAnswer> {
  let res: Response;
  try {
    res = await fetch(url, {
      method: init.method ?? 'GET',
      headers: {
        accept: 'application/json',
        'user-agent': `portcullis/${VERSION}`,
        ...(init.form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
        ...init.headers,
      },
      body: init.form?.toString(),
      redirect: 'error',
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch (err) {
    throw new UpstreamError(`${new URL(url).host} unreachable: ${(err as Error).name}`);
  }
  const text = await readCappedText(res, MAX_BODY_BYTES, () => new UpstreamError(`answer larger than ${MAX_BODY_BYTES} bytes`));
  return { status: res.status, body: parseBody(text, res.headers.get('content-type')) };
}

/** A GET that must answer 2xx, with the access token as a bearer (RFC 6750 section 2.1). */
export async function getWithToken(url: string, accessToken: string, headers: Record<string, string> = {}): Promise<unknown> {
  const answer = await upstreamRequest(url, { headers: { authorization: `Bearer ${accessToken}`, ...headers } });
  if (answer.status < 200 || answer.status > 299) throw new UpstreamError(`${new URL(url).host}${new URL(url).pathname} answered ${answer.status}`);
  return answer.body;
}

export function str(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}
