/**
 * A single-use ledger on a database table: an id recorded as used until it expires, so that one value (a
 * client assertion's jti, a SAML assertion or request ID) passes once across every instance on the database.
 * The insert on the primary key is the check, so of two concurrent uses only one passes on any database. An
 * id whose record has expired but is not swept yet is free again: what it named can no longer be presented.
 * Expired rows are swept at most once a minute per table and owner (the app's Deps).
 *
 * The table holds at least `id` (primary key) and `expiresAt`; other columns (an `orgId`, so the rows go
 * with their organization) come with the row. `em` must be outside any transaction: the record has to
 * commit even when the request that made it fails afterwards.
 */
import type { EntityManager, EntityName, FilterQuery } from '@mikro-orm/core';
import { isUniqueViolation } from './errors.ts';

const SWEEP_INTERVAL_MS = 60_000;
const lastSweeps = new WeakMap<object, Map<unknown, number>>();

export interface SingleUseRow {
  id: string;
  expiresAt: Date;
}

/**
 * Deletes the table's rows whose `expiresAt` is past, at most once a minute per table and owner (the app's
 * Deps): also the housekeeping of the browser-flow tables (modules/sessions/browser-flow.ts).
 */
export async function sweepExpiredIfDue<Row extends { expiresAt: Date }>(em: EntityManager, entity: EntityName<Row>, owner: object, now: Date): Promise<void> {
  let sweeps = lastSweeps.get(owner);
  if (!sweeps) lastSweeps.set(owner, (sweeps = new Map()));
  const last = sweeps.get(entity) ?? 0;
  if (now.getTime() - last < SWEEP_INTERVAL_MS && last <= now.getTime()) return;
  sweeps.set(entity, now.getTime());
  await em.nativeDelete(entity, { expiresAt: { $lt: now } } as FilterQuery<Row>);
}

/** Records `row.id` as used until `row.expiresAt`; false when it is already used and not expired (a replay). */
export async function useOnce<Row extends SingleUseRow>(em: EntityManager, entity: EntityName<Row>, row: Row, now: Date, owner: object): Promise<boolean> {
  await sweepExpiredIfDue(em, entity, owner, now);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      await em.insert(entity, row);
      return true;
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
      const freed = await em.nativeDelete(entity as EntityName<SingleUseRow>, { id: row.id, expiresAt: { $lt: now } });
      if (freed === 0) return false;
    }
  }
  return false;
}
