/**
 * Verified client credentials held in memory, so that client authentication at the token endpoint does not
 * read the database on every call (3,000 client_credentials tokens/s; an ORM read costs
 * about 300 us). An entry says "this client_id with a secret of this digest was verified against the stored
 * row at time t, and the row was then this snapshot".
 *
 * Bounds and staleness:
 * - At most MAX_CLIENTS client ids, each with at most MAX_DIGESTS_PER_CLIENT accepted digests (the current
 *   secret and, during a rotation's grace window, the previous one); the oldest written is dropped first.
 *   Only successful checks are stored: a flood of wrong secrets costs no memory (it costs database reads,
 *   which the failure limit of modules/oauth/client-auth.ts bounds).
 * - On this instance, updateClient, rotateClientSecret and deleteClient invalidate the client at once (a
 *   deactivated client, or a secret rotated out with grace 0, is refused by the next request). A check whose
 *   database read was under way when the client was invalidated, or that starts within NO_STORE_AFTER_CHANGE_MS
 *   of it (the admin transaction that made the change may not have committed yet, so the read can still see
 *   the old row), is not stored.
 * - Other instances learn nothing of the change: an entry is trusted for at most TTL_MS (5 s), so every
 *   instance refuses a deactivated client or a rotated-out secret at most 5 s after the change committed.
 *   An entry won through the previous secret never outlives that secret's grace end.
 * - The key is the SHA-256 digest of the presented secret, never the secret itself: a heap dump shows what
 *   the database holds anyway. A Map lookup keyed by the digest leaks nothing about the stored secret in
 *   its timing (an attacker would have to choose the digest, i.e. invert SHA-256).
 *
 * One cache per ORM (per app; tests run several apps in one process): keyed by the ORM's Configuration,
 * which every fork and transaction of an EntityManager shares, so the service functions, which receive only
 * an EntityManager, reach the same cache as the token endpoint.
 */
import type { EntityManager } from '@mikro-orm/core';
import { BoundedMap } from '../../kernel/bounded-map.ts';
import type { ClientRow } from './client.entity.ts';

/** How long an entry is trusted: the bound on cross-instance staleness (see above). */
export const CLIENT_CACHE_TTL_MS = 5_000;
/** Checks starting this soon after an invalidation are not stored: the change may not be committed yet. */
export const NO_STORE_AFTER_CHANGE_MS = 5_000;
const MAX_CLIENTS = 10_000;
const MAX_DIGESTS_PER_CLIENT = 4;

/** A frozen copy of the row as it was when the secret was verified; never attached to a unit of work. */
export type ClientSnapshot = Readonly<ClientRow>;

interface Accepted {
  readonly client: ClientSnapshot;
  /** Epoch milliseconds of the clock passed in, after which the entry is not used. */
  readonly expiresAt: number;
}

export class ClientAuthCache {
  readonly #accepted = new BoundedMap<string, Map<string, Accepted>>(MAX_CLIENTS);
  /** When each client was last invalidated (performance.now(), not the injected clock: it is about commit timing). */
  readonly #changedAt = new BoundedMap<string, number>(MAX_CLIENTS);
  /** Per-client invalidation counter: a read that saw the counter change while it ran is not stored. */
  readonly #epochs = new BoundedMap<string, number>(MAX_CLIENTS);

  /** The snapshot verified for this client_id and secret digest, while the entry is fresh. */
  lookup(clientId: string, digest: string, nowMs: number): ClientSnapshot | undefined {
    const entry = this.#accepted.get(clientId)?.get(digest);
    if (!entry) return undefined;
    if (entry.expiresAt <= nowMs) {
      this.#accepted.get(clientId)?.delete(digest);
      return undefined;
    }
    return entry.client;
  }

  /** Any fresh snapshot of the client (introspection's "is the client still active"), or undefined. */
  anySnapshot(clientId: string, nowMs: number): ClientSnapshot | undefined {
    for (const entry of this.#accepted.get(clientId)?.values() ?? []) if (entry.expiresAt > nowMs) return entry.client;
    return undefined;
  }

  /** A token to hand back to store(): taken before the database read. */
  beginRead(clientId: string): number {
    return this.#epochs.get(clientId) ?? 0;
  }

  /**
   * Remembers a successful check made by a read that began with `epoch`; `validUntilMs` caps the entry
   * (the previous secret's grace end). Not stored when the client changed during or just before the read.
   */
  store(clientId: string, digest: string, row: ClientRow, epoch: number, nowMs: number, validUntilMs = Number.POSITIVE_INFINITY): void {
    if ((this.#epochs.get(clientId) ?? 0) !== epoch) return;
    const changedAt = this.#changedAt.get(clientId);
    if (changedAt !== undefined && performance.now() - changedAt < NO_STORE_AFTER_CHANGE_MS) return;
    let digests = this.#accepted.get(clientId);
    if (!digests) {
      digests = new Map();
      this.#accepted.set(clientId, digests);
    }
    if (digests.size >= MAX_DIGESTS_PER_CLIENT) digests.delete(digests.keys().next().value as string);
    digests.set(digest, { client: snapshotOf(row), expiresAt: Math.min(nowMs + CLIENT_CACHE_TTL_MS, validUntilMs) });
  }

  /** Forgets everything about the client on this instance (update, rotate, delete, deactivate). */
  invalidate(clientId: string): void {
    this.#accepted.delete(clientId);
    this.#epochs.set(clientId, (this.#epochs.get(clientId) ?? 0) + 1);
    this.#changedAt.set(clientId, performance.now());
  }

  clear(): void {
    this.#accepted.clear();
  }
}

function snapshotOf(row: ClientRow): ClientSnapshot {
  return Object.freeze({
    ...row,
    allowedScopes: Object.freeze([...row.allowedScopes]) as string[],
    redirectUris: Object.freeze([...row.redirectUris]) as string[],
  });
}

const caches = new WeakMap<object, ClientAuthCache>();

/** The cache of the app whose ORM `owner` (an EntityManager of it, or the MikroORM itself) belongs to. */
export function clientAuthCacheOf(owner: Pick<EntityManager, 'config'>): ClientAuthCache {
  let cache = caches.get(owner.config);
  if (!cache) {
    cache = new ClientAuthCache();
    caches.set(owner.config, cache);
  }
  return cache;
}
