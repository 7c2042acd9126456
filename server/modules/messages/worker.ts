/**
 * The message outbox worker. It is woken right after an operation commits a MessageJob and also polls
 * (about once a second) for rows that another instance, a crash or a retry left due. Each row is claimed
 * with one conditional update (compare-and-set on `attempts`), so of two instances exactly one sends it;
 * a claim is a lease, and a row whose sender died is claimed again once the lease runs out.
 *
 * A failed delivery is retried with exponential backoff (base, 2 x base, 4 x base, ... capped) up to
 * `maxAttempts`; then the row stays as `failed` and the failure is logged. Logs carry the job id, flow and
 * channel and the upstream's generic reason, never the destination, a token, a code or a credential.
 */
import type { Deps } from '../../kernel/deps.ts';
import { AppError } from '../../kernel/errors.ts';
import { createSmtpMailer } from '../email/index.ts';
import { createSmsProvider } from '../sms/index.ts';
import type { Mailer } from '../email/index.ts';
import type { SmsProvider } from '../sms/index.ts';
import { MessageJob, type MessageJobRow } from './message-job.entity.ts';

export interface DeliveryDeps {
  deps: Deps;
  mailer: Mailer;
  sms: SmsProvider;
}

/**
 * Prepares and sends one job. The account flows above this module supply it (accounts/message-delivery.ts):
 * deciding whether an account gets a link or a code is theirs, keeping and retrying the job is the outbox's.
 */
export type DeliverMessage = (delivery: DeliveryDeps, job: MessageJobRow) => Promise<void>;

export interface OutboxOptions {
  /** Poll interval for rows nobody woke this instance for. */
  pollMs: number;
  /** First retry delay; doubles with every failed attempt. */
  retryBaseMs: number;
  retryMaxMs: number;
  maxAttempts: number;
  /** How long a claim holds; longer than the SMTP and SMS timeouts together. */
  leaseMs: number;
  /** Messages sent at once by this instance. */
  concurrency: number;
}

export const DEFAULT_OUTBOX_OPTIONS: OutboxOptions = {
  pollMs: 1000,
  retryBaseMs: 2000,
  retryMaxMs: 10 * 60_000,
  maxAttempts: 8,
  leaseMs: 2 * 60_000,
  concurrency: 4,
};

const BATCH = 32;

export interface MessageOutbox {
  start(deps: Deps): void;
  /** Looks for due rows now (after a commit); cheap and never throws. */
  wake(): void;
  /** Resolves once nothing is due and no delivery is running (tests, shutdown). */
  idle(): Promise<void>;
  stop(): Promise<void>;
}

/** A reason safe to log and store: an AppError's public message, else the error's class name. */
function reasonOf(err: unknown): string {
  if (err instanceof AppError) return err.message.slice(0, 255);
  return (err instanceof Error ? err.name : 'Error').slice(0, 255);
}

export function retryDelayMs(options: OutboxOptions, attempts: number): number {
  return Math.min(options.retryMaxMs, options.retryBaseMs * 2 ** Math.max(0, attempts - 1));
}

export function createMessageOutbox(deliverMessage: DeliverMessage, overrides: Partial<OutboxOptions> = {}): MessageOutbox {
  const options = { ...DEFAULT_OUTBOX_OPTIONS, ...overrides };
  let delivery: DeliveryDeps | undefined;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let again = false;
  let stopped = false;

  async function due(): Promise<MessageJobRow[]> {
    const now = delivery!.deps.clock.now();
    return delivery!.deps.storage.fork().find(
      MessageJob,
      { $or: [{ status: 'pending', nextAttemptAt: { $lte: now } }, { status: 'sending', leaseUntil: { $lt: now } }] },
      { orderBy: { nextAttemptAt: 'asc', id: 'asc' }, limit: BATCH },
    );
  }

  /** Takes the row for this instance; false when another instance (or an earlier pass) has it. */
  async function claim(row: MessageJobRow): Promise<boolean> {
    const { clock, storage } = delivery!.deps;
    const now = clock.now();
    const claimed = await storage.fork().nativeUpdate(
      MessageJob,
      { id: row.id, attempts: row.attempts, status: row.status },
      { status: 'sending', attempts: row.attempts + 1, leaseUntil: new Date(now.getTime() + options.leaseMs), updatedAt: now },
    );
    if (claimed !== 1) return false;
    row.attempts += 1;
    return true;
  }

  async function settle(row: MessageJobRow, err: unknown): Promise<void> {
    const { clock, storage, logger } = delivery!.deps;
    const em = storage.fork();
    const mine = { id: row.id, attempts: row.attempts, status: 'sending' };
    if (err === undefined) {
      await em.nativeDelete(MessageJob, mine);
      return;
    }
    const now = clock.now();
    const reason = reasonOf(err);
    const log = { job: row.id, flow: row.flow, channel: row.channel, attempts: row.attempts, reason };
    if (row.attempts >= options.maxAttempts) {
      await em.nativeUpdate(MessageJob, mine, { status: 'failed', leaseUntil: null, lastError: reason, updatedAt: now });
      logger.error(log, 'message delivery failed for good');
      return;
    }
    const next = new Date(now.getTime() + retryDelayMs(options, row.attempts));
    await em.nativeUpdate(MessageJob, mine, { status: 'pending', leaseUntil: null, nextAttemptAt: next, lastError: reason, updatedAt: now });
    logger.warn({ ...log, retryAt: next.toISOString() }, 'message delivery failed; will retry');
  }

  async function process(row: MessageJobRow): Promise<void> {
    if (row.attempts >= options.maxAttempts) {
      // A lease that ran out after the last attempt (the sender died): give up rather than send again.
      const now = delivery!.deps.clock.now();
      await delivery!.deps.storage.fork().nativeUpdate(
        MessageJob,
        { id: row.id, attempts: row.attempts, status: row.status },
        { status: 'failed', leaseUntil: null, lastError: row.lastError ?? 'lease expired', updatedAt: now },
      );
      return;
    }
    if (!(await claim(row))) return;
    let failure: unknown;
    try {
      await deliverMessage(delivery!, row);
    } catch (err) {
      failure = err ?? new Error('unknown failure');
    }
    await settle(row, failure);
  }

  async function drain(): Promise<void> {
    do {
      again = false;
      const rows = await due();
      const queue = [...rows];
      await Promise.all(
        Array.from({ length: Math.min(options.concurrency, queue.length) }, async () => {
          for (let row = queue.shift(); row && !stopped; row = queue.shift()) await process(row);
        }),
      );
      // A full batch may hide more due rows.
      if (rows.length === BATCH) again = true;
    } while (again && !stopped);
  }

  function wake(): void {
    if (!delivery || stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = drain()
      .catch((err) => delivery!.deps.logger.error({ reason: reasonOf(err) }, 'message outbox pass failed'))
      .finally(() => {
        running = undefined;
      });
  }

  return {
    start(deps) {
      if (delivery) return;
      delivery = { deps, mailer: createSmtpMailer(deps.config, deps.logger), sms: createSmsProvider(deps.config, deps.logger) };
      timer = setInterval(wake, options.pollMs);
      timer.unref();
      wake();
    },
    wake,
    async idle() {
      while (delivery && !stopped) {
        if (running) {
          await running;
          continue;
        }
        const now = delivery.deps.clock.now();
        const pending = await delivery.deps.storage.fork().count(MessageJob, { status: { $in: ['pending', 'sending'] } });
        if (pending === 0) return;
        const next = await delivery.deps.storage.fork().findOne(MessageJob, { status: { $in: ['pending', 'sending'] } }, { orderBy: { nextAttemptAt: 'asc' } });
        const waitMs = next ? Math.max(10, Math.min(options.pollMs, next.nextAttemptAt.getTime() - now.getTime())) : 10;
        await new Promise((resolve) => setTimeout(resolve, waitMs));
        wake();
      }
    },
    async stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      await running;
    },
  };
}
