/**
 * When a login also sweeps its user's dead rows (issue-session.ts sweepForUser). The sweep is housekeeping
 * only: an expired token is refused by its exp claim and its record's expiry whether or not the row is still
 * there, and a session row ends with its cookie. Rows expire as time passes (30-minute access tokens,
 * 24-hour cookies), so sweeping one user again minutes after the last sweep finds next to nothing, yet costs
 * two ORM statements (about 0.7 ms of the event loop, a seventh of a login's own work). So a user is swept
 * at most once per SWEEP_INTERVAL_MS per database and process; a user not seen recently is swept at once.
 */
import { BoundedMap } from '../../kernel/bounded-map.ts';

/** Leftover expired rows of an active user stay at most this old before a login sweeps them. */
export const SWEEP_INTERVAL_MS = 10 * 60 * 1000;

/** Users remembered per database; beyond this the least recently swept are forgotten (and swept next time). */
export const SWEPT_USERS_KEPT = 4096;

export class SweepSchedule {
  /** Least recently swept first: a write makes an entry the newest, and the oldest go past the bound. */
  readonly #lastSweep: BoundedMap<string, number>;
  readonly #intervalMs: number;

  constructor(intervalMs = SWEEP_INTERVAL_MS, kept = SWEPT_USERS_KEPT) {
    this.#intervalMs = intervalMs;
    this.#lastSweep = new BoundedMap(kept);
  }

  get size(): number {
    return this.#lastSweep.size;
  }

  /**
   * True when `userId` should be swept now, and then counts it as swept at `now`. A clock that went back
   * (the last sweep seems to be in the future) counts as due.
   */
  due(userId: string, now: Date): boolean {
    const at = now.getTime();
    const last = this.#lastSweep.get(userId);
    if (last !== undefined && at >= last && at - last < this.#intervalMs) return false;
    this.#lastSweep.set(userId, at);
    return true;
  }
}

const schedules = new WeakMap<object, SweepSchedule>();

/** The schedule of one database (keyed by its Storage object, so each server instance has its own). */
export function sweepScheduleOf(storage: object): SweepSchedule {
  let schedule = schedules.get(storage);
  if (!schedule) {
    schedule = new SweepSchedule();
    schedules.set(storage, schedule);
  }
  return schedule;
}
