/**
 * The signing keys of trusted issuers, fetched from their JWKS URLs (RFC 7517 section 5) and cached, so an
 * assertion costs no network round trip in the common case. A fetch is bounded (jwks-fetch.ts): internal
 * addresses refused after one pinned resolution, a timeout, a size cap, no redirects (the admin registered
 * this URL; a redirect could lead the server anywhere, RFC 7517 section 9.4 asks for key provenance). Keys are kept for TTL_MS; a signature by a key id the cached set does not hold
 * refetches at once (key rotation), but at most once per REFETCH_INTERVAL_MS per URL, so a stream of
 * assertions naming made-up key ids cannot turn the server into a request generator against the issuer.
 */
import { createLocalJWKSet, errors as joseErrors, jwtVerify, type JSONWebKeySet, type JWTVerifyOptions, type JWTVerifyResult } from 'jose';
import type { Config } from '../../config/flags.ts';
import { BoundedMap } from '../../kernel/bounded-map.ts';
import { fetchJwks, JwksUnavailableError } from './jwks-fetch.ts';

export { fetchJwks, JwksUnavailableError, FETCH_TIMEOUT_MS, MAX_JWKS_BYTES, type JwksFetchOptions } from './jwks-fetch.ts';

export const TTL_MS = 10 * 60_000;
export const REFETCH_INTERVAL_MS = 60_000;
/** Keys already held keep verifying this long after their fetch while the issuer cannot be reached. */
export const MAX_STALE_MS = 2 * TTL_MS;
/** A failed fetch is answered from memory this long, so an unreachable issuer is not asked on every request. */
export const FAILURE_HOLD_MS = 10_000;
const MAX_URLS = 1_000;

interface Entry {
  keySet?: ReturnType<typeof createLocalJWKSet>;
  fetchedAt: number;
  failedAt?: number;
  pending?: Promise<Entry>;
}

export interface JwksCacheOptions {
  /** Milliseconds clock for cache ages; default performance.now(). */
  now?: () => number;
  fetcher?: (url: string) => Promise<JSONWebKeySet>;
}

export class JwksCache {
  readonly #entries = new BoundedMap<string, Entry>(MAX_URLS);
  readonly #now: () => number;
  readonly #fetch: (url: string) => Promise<JSONWebKeySet>;

  constructor(options: JwksCacheOptions = {}) {
    this.#now = options.now ?? (() => performance.now());
    this.#fetch = options.fetcher ?? ((url) => fetchJwks(url));
  }

  /** One fetch per URL at a time; concurrent callers share it. */
  #refresh(url: string, previous: Entry | undefined): Promise<Entry> {
    if (previous?.pending) return previous.pending;
    const pending = this.#fetch(url).then(
      (jwks) => ({ keySet: createLocalJWKSet(jwks), fetchedAt: this.#now() }),
      (err: unknown) => {
        const failed: Entry = { ...previous, fetchedAt: previous?.fetchedAt ?? this.#now(), failedAt: this.#now() };
        this.#entries.set(url, failed);
        throw err instanceof JwksUnavailableError ? err : new JwksUnavailableError('the trusted issuer\'s JWKS is not a valid key set');
      },
    ).then((entry) => {
      this.#entries.set(url, entry);
      return entry;
    });
    this.#entries.set(url, { ...previous, fetchedAt: previous?.fetchedAt ?? 0, pending });
    return pending;
  }

  async #current(url: string): Promise<Entry> {
    const entry = this.#entries.get(url);
    if (entry?.pending) return entry.pending;
    const now = this.#now();
    const usable = entry?.keySet !== undefined && now - entry.fetchedAt < MAX_STALE_MS;
    if (entry?.failedAt !== undefined && now - entry.failedAt < FAILURE_HOLD_MS) {
      if (usable) return entry;
      throw new JwksUnavailableError('the trusted issuer\'s JWKS could not be fetched recently; try again shortly');
    }
    if (entry?.keySet && now - entry.fetchedAt < TTL_MS) return entry;
    try {
      return await this.#refresh(url, entry);
    } catch (err) {
      // An issuer that is down does not lock out its clients while the keys we already hold are not too old.
      if (usable) return entry!;
      throw err;
    }
  }

  /**
   * jose's jwtVerify with the keys published at `url`. A key id the set does not hold triggers one refetch
   * (rate-limited per URL) before the refusal stands. Throws jose's errors, or JwksUnavailableError.
   */
  async verify(url: string, token: string, options: JWTVerifyOptions): Promise<JWTVerifyResult> {
    const entry = await this.#current(url);
    try {
      return await jwtVerify(token, entry.keySet!, options);
    } catch (err) {
      if (!(err instanceof joseErrors.JWKSNoMatchingKey)) throw err;
      if (this.#now() - entry.fetchedAt < REFETCH_INTERVAL_MS) throw err;
      const fresh = await this.#refresh(url, this.#entries.get(url));
      return jwtVerify(token, fresh.keySet!, options);
    }
  }

  /** Forgets a URL (an admin changed or removed the issuer). */
  forget(url: string): void {
    this.#entries.delete(url);
  }
}

const caches = new WeakMap<object, JwksCache>();

/** What the cache of an app reads of it: its clock, and whether a JWKS may be fetched from an internal address. */
export interface JwksCacheOwner {
  readonly clock: { now(): Date };
  readonly config: Pick<Config, 'trustedIssuerAllowPrivateAddresses'>;
}

/**
 * The cache of one app (keyed on its Deps, so tests' servers do not share keys), aged by the app's clock so
 * that a test clock moved forward ages it too, fetching under --trusted-issuer-allow-private-addresses.
 */
export function jwksCacheOf(owner: JwksCacheOwner): JwksCache {
  let cache = caches.get(owner);
  if (!cache) {
    const allowPrivate = owner.config.trustedIssuerAllowPrivateAddresses;
    cache = new JwksCache({ now: () => owner.clock.now().getTime(), fetcher: (url) => fetchJwks(url, { allowPrivate }) });
    caches.set(owner, cache);
  }
  return cache;
}
