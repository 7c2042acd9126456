/**
 * A single-use ledger on a database table: an id recorded as used until it expires, so that one value (a
 * client assertion's jti, a SAML assertion or request ID) passes once across every instance on the database.
 * The insert on the primary key is the check, so of two concurrent uses only one passes on any database. An
 * id whose record has expired but is not swept yet is free again: what it named can no longer be presented.
 * Expired rows are swept at most once a minute per table and owner (the app's Deps), a bounded batch at a time.
 *
 * The table holds at least `id` (primary key) and `expiresAt`; other columns (an `orgId`, so the rows go
 * with their organization) come with the row. `em` must be outside any transaction: the record has to
 * commit even when the request that made it fails afterwards.
 */
import type { EntityManager, EntityName, FilterQuery } from '@mikro-orm/core';
import { isUniqueViolation } from './errors.ts';

const SWEEP_INTERVAL_MS = 60_000;
/**
 * Rows deleted by one sweep at most: no statement holds locks on more rows than this, or builds an unbounded
 * undo log, on the request that happens to sweep. A full batch leaves the sweep due, so the next use takes the
 * next batch and a backlog drains one bounded statement per use.
 */
export const SWEEP_BATCH_SIZE = 1000;
const lastSweeps = new WeakMap<object, Map<unknown, number>>();

export interface SingleUseRow {
  id: string;
  expiresAt: Date;
}

/**
 * Deletes up to SWEEP_BATCH_SIZE of the table's rows whose `expiresAt` is past, oldest first, at most once a
 * minute per table and owner (the app's Deps) unless the last batch was full: also the housekeeping of the
 * browser-flow tables (modules/sessions/browser-flow.ts). Answers the rows deleted.
 */
export async function sweepExpiredIfDue<Row extends { id: string; expiresAt: Date }>(em: EntityManager, entity: EntityName<Row>, owner: object, now: Date): Promise<number> {
  let sweeps = lastSweeps.get(owner);
  if (!sweeps) lastSweeps.set(owner, (sweeps = new Map()));
  const last = sweeps.get(entity) ?? 0;
  if (now.getTime() - last < SWEEP_INTERVAL_MS && last <= now.getTime()) return 0;
  sweeps.set(entity, now.getTime());
  const expired = { expiresAt: { $lt: now } } as unknown as FilterQuery<Row>;
  const rows = (await em.find(entity, expired, {
    orderBy: { expiresAt: 'asc' } as never,
    limit: SWEEP_BATCH_SIZE,
    fields: ['id'] as never,
    // Ids only, read to be deleted: nothing for the caller's unit of work to hold.
    disableIdentityMap: true,
  })) as Row[];
  if (rows.length === 0) return 0;
  // The delete repeats the expiry, so a row used again since it was read is left alone.
  const deleted = await em.nativeDelete(entity, { id: { $in: rows.map((row) => row.id) }, expiresAt: { $lt: now } } as unknown as FilterQuery<Row>);
  if (rows.length === SWEEP_BATCH_SIZE) sweeps.delete(entity);
  return deleted;
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
