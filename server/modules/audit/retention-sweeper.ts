/**
 * Retention: a background worker that deletes rows older than a configured number of days
 * (docs/configuration.md#retention), for the audit log here and for webhook events and logs
 * (modules/webhooks/retention.ts), and rows past their own expiry (tokens/expiry-sweep.ts: sessions and token
 * records). It is housekeeping that must never compete with requests, so it:
 *
 * - deletes in bounded batches: each batch reads at most `batchSize` candidate ids oldest first through the
 *   table's time index, then deletes those ids in one statement, so no statement holds locks on more than a
 *   batch of rows or builds an unbounded undo log; it pauses `pauseMs` between batches;
 * - walks with a keyset cursor (time, id), so rows a task must keep (an event whose delivery is still
 *   pending) are stepped over, never read again in the same run;
 * - runs on one instance of a fleet at a time: the run holds a WorkerLease (worker-lease.entity.ts), claimed
 *   by one conditional update and renewed between batches; a holder that died loses it when it runs out
 *   (docs/architecture.md#background-workers);
 * - does nothing at all when every task keeps its rows forever (a retention of 0 days, the default).
 *
 * Time comes from Deps.clock, so tests drive the cutoff with an injected clock.
 */
import { randomUUID } from 'node:crypto';
import type { EntityManager, EntityName, FilterQuery } from '@mikro-orm/core';
import type { Config } from '../../config/flags.ts';
import type { Deps } from '../../kernel/deps.ts';
import type { Worker } from '../manifest.ts';
import { isUniqueViolation } from '../../storage/errors.ts';
import { WorkerLease } from './worker-lease.entity.ts';

const DAY_MS = 24 * 3600 * 1000;

/** Where a run stands in a table: the last row it looked at, by (time, id). */
export interface PruneCursor {
  readonly at: Date;
  readonly id: string;
}

export interface PruneBatch {
  /** Rows deleted by this batch. */
  deleted: number;
  /** Candidate rows looked at; fewer than the limit means the table holds no more expired rows. */
  scanned: number;
  /** The last candidate looked at, where the next batch starts. */
  last?: PruneCursor;
}

/** One table's retention: how many days it keeps (0: forever) and how to delete one batch. */
export interface RetentionTask {
  readonly name: string;
  retentionDays(config: Config): number;
  /**
   * For rows that carry their own end (an `expiresAt`): the cutoff at `now`, in place of the retention in
   * days, and the task always runs. Expired sessions and token records go this way (tokens/expiry-sweep.ts).
   */
  cutoffAt?(now: Date, config: Config): Date;
  pruneBatch(em: EntityManager, cutoff: Date, limit: number, after: PruneCursor | undefined): Promise<PruneBatch>;
}

/**
 * One batch of a table pruned by a time column: up to `limit` rows with `field` before `cutoff`, after the
 * cursor, oldest first; `keep` names the ids among them that must stay. The delete repeats the cutoff, so
 * a row changed since it was read is left alone.
 */
export async function pruneOldest<Row extends { id: string }>(
  em: EntityManager,
  entity: EntityName<Row>,
  field: keyof Row & string,
  cutoff: Date,
  limit: number,
  after: PruneCursor | undefined,
  keep?: (ids: readonly string[]) => Promise<ReadonlySet<string>>,
): Promise<PruneBatch> {
  const expired = { [field]: { $lt: cutoff } };
  const past = after ? { $or: [{ [field]: { $gt: after.at } }, { [field]: after.at, id: { $gt: after.id } }] } : {};
  const rows = (await em.find(entity, { ...expired, ...past } as unknown as FilterQuery<Row>, {
    orderBy: { [field]: 'asc', id: 'asc' } as never,
    limit,
    fields: ['id', field] as never,
  })) as Row[];
  if (rows.length === 0) return { deleted: 0, scanned: 0 };
  const ids = rows.map((row) => row.id);
  const kept = keep ? await keep(ids) : new Set<string>();
  const doomed = ids.filter((id) => !kept.has(id));
  const deleted = doomed.length === 0 ? 0 : await em.nativeDelete(entity, { id: { $in: doomed }, ...expired } as unknown as FilterQuery<Row>);
  const lastRow = rows.at(-1)!;
  return { deleted, scanned: rows.length, last: { at: lastRow[field] as Date, id: lastRow.id } };
}

export interface RetentionOptions {
  /** Time between runs. */
  intervalMs: number;
  /** Time from start to the first run, so that pruning a backlog does not slow the start. */
  firstRunDelayMs: number;
  /** Rows per delete statement. */
  batchSize: number;
  /** Pause between batches, leaving the database to requests. */
  pauseMs: number;
  /** How long a run's lease holds without renewal; renewed after every batch. */
  leaseMs: number;
}

export const DEFAULT_RETENTION_OPTIONS: RetentionOptions = {
  intervalMs: 60 * 60_000,
  firstRunDelayMs: 60_000,
  batchSize: 1000,
  pauseMs: 200,
  leaseMs: 5 * 60_000,
};

export interface RetentionWorker extends Worker {
  /** Runs once now (tests, and the timer): rows deleted per task; empty when another instance holds the lease. */
  runNow(): Promise<Record<string, number>>;
}

const sleep = (ms: number) => new Promise<void>((done) => setTimeout(done, ms));

/** Takes or renews the lease `name` until `now + leaseMs`; false when another live holder has it. */
async function claimLease(em: EntityManager, name: string, holder: string, now: Date, leaseMs: number): Promise<boolean> {
  const leaseUntil = new Date(now.getTime() + leaseMs);
  const taken = await em.nativeUpdate(WorkerLease, { id: name, $or: [{ holder }, { leaseUntil: { $lt: now } }] }, { holder, leaseUntil });
  if (taken === 1) return true;
  try {
    await em.insert(WorkerLease, { id: name, holder, leaseUntil });
    return true;
  } catch (err) {
    if (isUniqueViolation(err)) return false;
    throw err;
  }
}

/** A worker that prunes `tasks` under the lease `name` (one run at a time across instances). */
export function createRetentionWorker(name: string, tasks: readonly RetentionTask[], overrides: Partial<RetentionOptions> = {}): RetentionWorker {
  const options = { ...DEFAULT_RETENTION_OPTIONS, ...overrides };
  const holder = randomUUID();
  let deps: Deps | undefined;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<Record<string, number>> | undefined;
  let stopped = false;
  /** Whether this instance ever took the lease: only then has it one to hand back at stop. */
  let leased = false;

  const activeTasks = () => tasks.filter((task) => task.cutoffAt !== undefined || task.retentionDays(deps!.config) > 0);

  async function pruneTask(task: RetentionTask): Promise<number> {
    const { clock, storage } = deps!;
    const now = clock.now();
    const cutoff = task.cutoffAt ? task.cutoffAt(now, deps!.config) : new Date(now.getTime() - task.retentionDays(deps!.config) * DAY_MS);
    let after: PruneCursor | undefined;
    let deleted = 0;
    while (!stopped) {
      const batch = await task.pruneBatch(storage.fork(), cutoff, options.batchSize, after);
      deleted += batch.deleted;
      if (batch.scanned < options.batchSize || !batch.last) break;
      after = batch.last;
      // Another instance may take over once our lease runs out; a run that lost it stops here.
      if (!(await claimLease(storage.fork(), name, holder, clock.now(), options.leaseMs))) break;
      if (options.pauseMs > 0) await sleep(options.pauseMs);
    }
    return deleted;
  }

  async function run(): Promise<Record<string, number>> {
    const pruned: Record<string, number> = {};
    const due = activeTasks();
    if (due.length === 0) return pruned;
    if (!(await claimLease(deps!.storage.fork(), name, holder, deps!.clock.now(), options.leaseMs))) return pruned;
    leased = true;
    for (const task of due) {
      if (stopped) break;
      pruned[task.name] = await pruneTask(task);
      if (pruned[task.name]! > 0) deps!.logger.info({ job: name, table: task.name, pruned: pruned[task.name] }, 'retention: expired rows deleted');
    }
    return pruned;
  }

  function runNow(): Promise<Record<string, number>> {
    if (!deps) return Promise.reject(new Error(`${name}: runNow before start`));
    running ??= run().finally(() => {
      running = undefined;
    });
    return running;
  }

  function schedule(delayMs: number): void {
    if (stopped) return;
    timer = setTimeout(() => {
      runNow()
        .catch((err: Error) => deps!.logger.warn({ job: name, err: err.message }, 'retention run failed; will retry at the next interval'))
        .finally(() => schedule(options.intervalMs));
    }, delayMs);
    timer.unref();
  }

  return {
    runNow,
    start(started) {
      deps = started;
      // Keeping everything forever (the default) costs nothing: no timer, no query.
      if (activeTasks().length > 0) schedule(options.firstRunDelayMs);
    },
    async idle() {
      await running?.catch(() => undefined);
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running?.catch(() => undefined);
      if (!deps || !leased) return;
      // Hand the lease back so that another instance need not wait for it to run out.
      await deps.storage.fork().nativeUpdate(WorkerLease, { id: name, holder }, { leaseUntil: new Date(0) }).catch(() => undefined);
    },
  };
}
