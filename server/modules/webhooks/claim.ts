/**
 * Claiming due deliveries in batches (docs/events.md#the-delivery). A claim is a lease: `status` becomes
 * `sending` until `leaseUntil`, and `attempts` is counted up front, so an instance that dies mid-attempt
 * leaves a row that any instance claims again once the lease has run out, with the same delivery id.
 *
 * On the SQL databases one transaction selects a batch of due rows and updates them:
 * - PostgreSQL and MariaDB/MySQL lock the rows selected with `FOR UPDATE SKIP LOCKED`, so two instances
 *   claiming at once take disjoint batches instead of queueing on each other's rows;
 * - SQLite has one writer at a time (its transactions serialise), so the select and the update see the same rows.
 * Each update is still a compare-and-set on `attempts` (grouped by its value, mostly one statement per
 * batch); a count that differs rolls the whole claim back, so a row is never sent by two instances at once.
 * MongoDB, whose transactions need a replica set (storage/types.ts rule 9), claims row by row with the same
 * compare-and-set, outside any transaction.
 */
import { LockMode, type EntityManager } from '@mikro-orm/core';
import type { Deps } from '../../kernel/deps.ts';
import { WebhookDelivery, type WebhookDeliveryRow } from './webhook.entity.ts';

/** What the worker keeps of a claimed row; `attempts` already counts the attempt about to be made. */
export type ClaimedDelivery = Pick<WebhookDeliveryRow, 'id' | 'webhookId' | 'eventName' | 'payload' | 'attempts'> & {
  /** This instance's claim ends then: past it another instance may send the row. */
  leaseUntil: Date;
};

export interface ClaimOptions {
  leaseMs: number;
  maxAttempts: number;
}

export interface ClaimResult {
  claimed: ClaimedDelivery[];
  /** Due rows seen, claimed or not: a batch as long as the limit may hide more. */
  seen: number;
  /** Rows whose lease ran out after their last attempt: marked failed instead of being sent again. */
  expired: Pick<WebhookDeliveryRow, 'id' | 'eventName'>[];
}

/** Pending and due, or claimed by a sender whose lease has run out. */
export function dueWhere(now: Date) {
  return { $or: [{ status: 'pending', nextAttemptAt: { $lte: now } }, { status: 'sending', leaseUntil: { $lt: now } }] };
}

class ClaimRaced extends Error {
  override readonly name = 'ClaimRaced';
}

function byAttempts<T extends { attempts: number }>(rows: readonly T[]): Map<number, T[]> {
  const groups = new Map<number, T[]>();
  for (const row of rows) {
    const group = groups.get(row.attempts);
    if (group) group.push(row);
    else groups.set(row.attempts, [row]);
  }
  return groups;
}

async function claimSelected(em: EntityManager, found: readonly WebhookDeliveryRow[], now: Date, options: ClaimOptions): Promise<ClaimResult> {
  // Copies: the updates below may refresh the managed entities in place.
  const rows = found.map((row) => ({ id: row.id, webhookId: row.webhookId, eventName: row.eventName, payload: row.payload, attempts: row.attempts }));
  const leaseUntil = new Date(now.getTime() + options.leaseMs);
  const live = rows.filter((row) => row.attempts < options.maxAttempts);
  const spent = rows.filter((row) => row.attempts >= options.maxAttempts);
  for (const [attempts, group] of byAttempts(live)) {
    const ids = group.map((row) => row.id);
    const updated = await em.nativeUpdate(
      WebhookDelivery,
      { $and: [{ id: { $in: ids }, attempts }, dueWhere(now)] },
      { status: 'sending', attempts: attempts + 1, leaseUntil, updatedAt: now },
    );
    if (updated !== ids.length) throw new ClaimRaced();
  }
  for (const [attempts, group] of byAttempts(spent)) {
    const ids = group.map((row) => row.id);
    const updated = await em.nativeUpdate(WebhookDelivery, { $and: [{ id: { $in: ids }, attempts }, dueWhere(now)] }, { status: 'failed', leaseUntil: null, updatedAt: now });
    if (updated !== ids.length) throw new ClaimRaced();
  }
  return {
    claimed: live.map((row) => ({ ...row, attempts: row.attempts + 1, leaseUntil })),
    seen: rows.length,
    expired: spent.map((row) => ({ id: row.id, eventName: row.eventName })),
  };
}

async function claimOneByOne(deps: Deps, rows: readonly WebhookDeliveryRow[], now: Date, options: ClaimOptions): Promise<ClaimResult> {
  const result: ClaimResult = { claimed: [], seen: rows.length, expired: [] };
  const leaseUntil = new Date(now.getTime() + options.leaseMs);
  for (const row of rows) {
    const mine = { id: row.id, attempts: row.attempts, status: row.status };
    if (row.attempts >= options.maxAttempts) {
      if ((await deps.storage.fork().nativeUpdate(WebhookDelivery, mine, { status: 'failed', leaseUntil: null, updatedAt: now })) === 1) {
        result.expired.push({ id: row.id, eventName: row.eventName });
      }
    } else if ((await deps.storage.fork().nativeUpdate(WebhookDelivery, mine, { status: 'sending', attempts: row.attempts + 1, leaseUntil, updatedAt: now })) === 1) {
      result.claimed.push({ id: row.id, webhookId: row.webhookId, eventName: row.eventName, payload: row.payload, attempts: row.attempts + 1, leaseUntil });
    }
  }
  return result;
}

/**
 * Claims up to `limit` due deliveries, oldest due first, leaving out `busy` (rows this instance is sending).
 * A claim that lost a race claims nothing; the caller simply tries again on its next pass.
 */
export async function claimDue(deps: Deps, limit: number, busy: readonly string[], options: ClaimOptions): Promise<ClaimResult> {
  const now = deps.clock.now();
  const where = busy.length ? { $and: [dueWhere(now), { id: { $nin: [...busy] } }] } : dueWhere(now);
  const order = { orderBy: { nextAttemptAt: 'asc', id: 'asc' }, limit } as const;
  if (deps.storage.kind === 'mongodb') return claimOneByOne(deps, await deps.storage.fork().find(WebhookDelivery, where, order), now, options);
  const lockMode = deps.storage.kind === 'sqlite' ? undefined : LockMode.PESSIMISTIC_PARTIAL_WRITE;
  try {
    return await deps.storage.fork().transactional(async (em) => claimSelected(em, await em.find(WebhookDelivery, where, { ...order, lockMode }), now, options));
  } catch (err) {
    if (err instanceof ClaimRaced) return { claimed: [], seen: limit, expired: [] };
    throw err;
  }
}
