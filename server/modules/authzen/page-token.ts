/**
 * Pagination of the search APIs (AuthZEN 1.0 section 8.2): each search lists its whole (capped) result in a
 * stable order, and a page is a window on it. The `next_token` is opaque to the PEP and holds the offset of
 * the next page and a digest of the request it belongs to: a token sent with other entities, context or
 * limit is refused (section 8.2: "PDPs SHOULD return an error when any entity or parameter has been
 * changed"). The offset is no secret and a forged one only moves the window, so the token is not signed.
 */
import { createHash } from 'node:crypto';
import { AppError } from '../../kernel/errors.ts';
import { DEFAULT_PAGE_LIMIT } from './authzen.schema.ts';

export interface PageRequest {
  token?: string;
  limit?: number;
}

export interface Page {
  next_token: string;
  count: number;
  total?: number;
}

/** A digest of everything but the token, in a fixed key order. */
function requestDigest(request: Record<string, unknown>, limit: number): string {
  const { page: _page, ...entities } = request;
  const canonical = JSON.stringify({ entities: sortedKeys(entities), limit });
  return createHash('sha256').update(canonical).digest('base64url').slice(0, 22);
}

function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedKeys);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.keys(value).sort().map((key) => [key, sortedKeys((value as Record<string, unknown>)[key])]));
}

function encode(offset: number, digest: string): string {
  return Buffer.from(JSON.stringify({ o: offset, q: digest })).toString('base64url');
}

function offsetOf(token: string, digest: string): number {
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
  } catch {
    decoded = undefined;
  }
  const { o, q } = (decoded ?? {}) as { o?: unknown; q?: unknown };
  if (typeof o !== 'number' || !Number.isSafeInteger(o) || o < 0 || typeof q !== 'string') {
    throw AppError.invalid('page.token: not a token this PDP issued');
  }
  if (q !== digest) {
    throw AppError.invalid('page.token: the request differs from the one that issued this token; send the same entities, context and page.limit');
  }
  return o;
}

/**
 * The page of `all` the request asks for. `complete` says whether `all` is the whole result (then `total`
 * is given).
 */
export function pageOf<T>(all: readonly T[], request: Record<string, unknown> & { page?: PageRequest }, complete: boolean): { page: Page; results: T[] } {
  const limit = request.page?.limit || DEFAULT_PAGE_LIMIT;
  const digest = requestDigest(request, limit);
  const offset = request.page?.token ? offsetOf(request.page.token, digest) : 0;
  const results = all.slice(offset, offset + limit);
  const end = offset + results.length;
  const page: Page = { next_token: end < all.length ? encode(end, digest) : '', count: results.length };
  if (complete) page.total = all.length;
  return { page, results };
}
