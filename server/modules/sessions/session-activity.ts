/**
 * What a session records of its use, so that its owner can recognise it (docs/tokens.md#a-users-own-sessions;
 * OWASP ASVS 3.3.4: users can view their active sessions and devices and end any of them): the device it was
 * opened from (User-Agent, client address) and when it was last used.
 *
 * Last use is kept at a resolution of a minute: a busy session must not cost a database write per request,
 * nor an invalidation of the token state cache (a bulk update does not pass through its flush hook,
 * tokens/state-cache/transaction-hooks.ts, and last use decides nothing about whether a session is honoured).
 * Each instance remembers when it last wrote a session's time (bounded), and the update itself is conditional,
 * so several instances together still write at most about once a minute per session.
 */
import type { Logger } from 'pino';
import type { RequestMeta } from '../../kernel/context.ts';
import { BoundedMap } from '../../kernel/bounded-map.ts';
import type { Storage } from '../../storage/types.ts';
import { Session } from './session.entity.ts';

/** Longer User-Agent strings are cut: browsers send 100 to 300 characters; the rest would only be stored noise. */
export const USER_AGENT_MAX_LENGTH = 512;
/** An IPv6 address with a zone is at most 45 characters; the column leaves room. */
const IP_MAX_LENGTH = 64;
/** How stale the recorded last use may be before a use writes it again. */
export const LAST_USED_RESOLUTION_MS = 60_000;
/** Sessions whose last write this instance remembers (a flood of sessions costs a fixed amount of memory). */
const REMEMBERED_SESSIONS = 10_000;

export interface SessionDevice {
  userAgent: string | null;
  ipAddress: string | null;
}

/** The device a request comes from, as a session stores it. Control characters are dropped from the User-Agent. */
export function deviceOf(req: Pick<RequestMeta, 'ip' | 'userAgent'>): SessionDevice {
  const userAgent = (req.userAgent ?? '').replace(/[\u0000-\u001f\u007f]/g, '').trim().slice(0, USER_AGENT_MAX_LENGTH);
  const ip = (req.ip ?? '').slice(0, IP_MAX_LENGTH);
  return { userAgent: userAgent || null, ipAddress: ip || null };
}

declare module '../../kernel/deps.ts' {
  interface Deps {
    /** Last-use writes of sessions (modules/sessions/session-activity.ts); absent in a Deps built without it. */
    readonly sessionActivity?: SessionActivity;
  }
}

export class SessionActivity {
  readonly #storage: Pick<Storage, 'fork'>;
  readonly #logger: Pick<Logger, 'warn'>;
  /** Session id to the time (ms) this instance last wrote or saw its last use. */
  readonly #written = new BoundedMap<string, number>(REMEMBERED_SESSIONS);

  constructor(storage: Pick<Storage, 'fork'>, logger: Pick<Logger, 'warn'>) {
    this.#storage = storage;
    this.#logger = logger;
  }

  /**
   * Records that the session was used at `now`, unless its recorded last use (`lastUsedAt`, as read with the
   * session) or this instance's last write is less than a minute old. Never throws: a failed write must not
   * refuse the request that used the session. Call it outside a transaction (it writes in autocommit).
   */
  async touch(session: { id: string; lastUsedAt?: Date | null; createdAt: Date }, now: Date): Promise<void> {
    const nowMs = now.getTime();
    const recorded = Math.max(session.lastUsedAt?.getTime() ?? session.createdAt.getTime(), this.#written.get(session.id) ?? -Infinity);
    if (nowMs - recorded < LAST_USED_RESOLUTION_MS) return;
    // Remembered before the write, so that concurrent requests of one session do not all write.
    this.#written.set(session.id, nowMs);
    const staleBefore = new Date(nowMs - LAST_USED_RESOLUTION_MS);
    try {
      await this.#storage.fork().nativeUpdate(
        Session,
        { id: session.id, $or: [{ lastUsedAt: null }, { lastUsedAt: { $lt: staleBefore } }] },
        { lastUsedAt: now },
      );
    } catch (err) {
      this.#written.delete(session.id);
      this.#logger.warn({ err: (err as Error).message }, 'sessions: the last use of a session could not be recorded');
    }
  }
}
