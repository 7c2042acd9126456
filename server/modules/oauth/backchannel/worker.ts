/**
 * Delivers the queued logout tokens (OpenID Connect Back-Channel Logout 1.0 §2.5): a POST of
 * application/x-www-form-urlencoded `logout_token=...` through the webhooks' SSRF-guarded sender (postWebhook:
 * the host resolved once, checked against the outbound address policy and pinned; a deadline per attempt).
 * Rows are claimed by compare-and-set on `attempts` with a lease, as the message outbox does
 * (messages/worker.ts), so of several instances one sends a row; retries back off as webhook deliveries do
 * (webhookRetryDelayMs). Delivered at least once: a 200 or 204 (§2.8) deletes the row; the last failed
 * attempt leaves it `failed`. Each attempt signs a fresh token, so a late retry is not an expired one.
 *
 * It is woken when a transaction that queued a delivery commits (commit-wake.ts), as the webhook worker is
 * (docs/events.md#the-delivery), so a logout reaches the client at once rather than at the next poll; it wakes
 * itself when the earliest retry it scheduled is due; and a slow poll (`pollMs`) picks up what no commit here
 * announced: deliveries queued by other instances, leases that ran out.
 */
import type { Deps } from '../../../kernel/deps.ts';
import { serialPass } from '../../../kernel/serial-pass.ts';
import { postWebhook, webhookRetryDelayMs } from '../../webhooks/index.ts';
import { ABSOLUTE_SESSION_SECONDS } from '../../tokens/index.ts';
import { BackchannelLogoutDelivery, SessionClient, type BackchannelLogoutDeliveryRow } from './backchannel.entity.ts';
import { signLogoutToken } from './logout-token.ts';
import { DeliveryCommitWaker } from './commit-wake.ts';

export interface BackchannelWorkerOptions {
  /** The slow poll for work no commit of this instance announced (other instances' deliveries, lost leases). */
  pollMs: number;
  retryBaseMs: number;
  retryMaxMs: number;
  maxAttempts: number;
  timeoutMs: number;
  leaseMs: number;
}

export const DEFAULT_BACKCHANNEL_OPTIONS: BackchannelWorkerOptions = {
  pollMs: 10_000,
  retryBaseMs: 1000,
  retryMaxMs: 10 * 60_000,
  maxAttempts: 8,
  timeoutMs: 5000,
  leaseMs: 30_000,
};

const BATCH = 32;
/** How often the session-client pairs of sessions past their absolute end are dropped. */
const FORGET_EVERY_MS = 10 * 60_000;

export interface BackchannelWorker {
  start(deps: Deps): void;
  idle(): Promise<void>;
  stop(): Promise<void>;
}

export function createBackchannelWorker(overrides: Partial<BackchannelWorkerOptions> = {}): BackchannelWorker {
  const options = { ...DEFAULT_BACKCHANNEL_OPTIONS, ...overrides };
  let deps: Deps | undefined;
  let timer: NodeJS.Timeout | undefined;
  let retryTimer: NodeJS.Timeout | undefined;
  let retryAt = Infinity;
  let stopped = false;
  const waker = new DeliveryCommitWaker(() => wake());
  let forgottenAt = 0;

  const dueWhere = (now: Date) => ({ $or: [{ status: 'pending', nextAttemptAt: { $lte: now } }, { status: 'sending', leaseUntil: { $lt: now } }] });

  async function send(row: BackchannelLogoutDeliveryRow): Promise<boolean> {
    const token = await signLogoutToken(deps!, { clientId: row.clientId, userId: row.userId, sid: row.sid });
    try {
      const res = await postWebhook(row.uri, new URLSearchParams({ logout_token: token }).toString(), {
        'content-type': 'application/x-www-form-urlencoded',
        'user-agent': 'Portcullis-Backchannel-Logout',
      }, { timeoutMs: options.timeoutMs, allowPrivate: deps!.config.webhookAllowPrivateAddresses, maxResponseBytes: 4096 });
      return res.status === 200 || res.status === 204;
    } catch {
      return false;
    }
  }

  async function process(row: BackchannelLogoutDeliveryRow): Promise<void> {
    const { storage, clock, logger } = deps!;
    const now = clock.now();
    const mine = { id: row.id, attempts: row.attempts, status: row.status };
    if (row.attempts >= options.maxAttempts) {
      await storage.fork().nativeUpdate(BackchannelLogoutDelivery, mine, { status: 'failed', leaseUntil: null });
      return;
    }
    const claimed = await storage.fork().nativeUpdate(BackchannelLogoutDelivery, mine, {
      status: 'sending', attempts: row.attempts + 1, leaseUntil: new Date(now.getTime() + options.leaseMs),
    });
    if (claimed !== 1) return;
    const attempts = row.attempts + 1;
    const claim = { id: row.id, attempts, status: 'sending' };
    if (await send(row)) {
      await storage.fork().nativeDelete(BackchannelLogoutDelivery, claim);
      return;
    }
    const log = { delivery: row.id, client: row.clientId, attempts };
    if (attempts >= options.maxAttempts) {
      await storage.fork().nativeUpdate(BackchannelLogoutDelivery, claim, { status: 'failed', leaseUntil: null });
      logger.error(log, 'back-channel logout delivery failed for good');
      return;
    }
    const delayMs = webhookRetryDelayMs(options, attempts);
    const next = new Date(clock.now().getTime() + delayMs);
    await storage.fork().nativeUpdate(BackchannelLogoutDelivery, claim, { status: 'pending', leaseUntil: null, nextAttemptAt: next });
    wakeIn(delayMs);
    logger.warn({ ...log, retryAt: next.toISOString() }, 'back-channel logout delivery failed; will retry');
  }

  /**
   * A session that simply expires (its row swept by tokens/expiry-sweep.ts) sends no logout token, and no
   * session outlives its absolute end (tokens/lifetimes.ts): its client pairs are dropped after that.
   */
  async function forgetExpiredPairs(): Promise<void> {
    const now = deps!.clock.now().getTime();
    if (now - forgottenAt < FORGET_EVERY_MS) return;
    forgottenAt = now;
    await deps!.storage.fork().nativeDelete(SessionClient, { createdAt: { $lt: new Date(now - ABSOLUTE_SESSION_SECONDS * 1000) } });
  }

  async function drain(): Promise<void> {
    await forgetExpiredPairs();
    for (;;) {
      const rows = await deps!.storage.fork().find(BackchannelLogoutDelivery, dueWhere(deps!.clock.now()), {
        orderBy: { nextAttemptAt: 'asc', id: 'asc' }, limit: BATCH,
      });
      await Promise.all(rows.map((row) => process(row)));
      if (rows.length < BATCH || stopped) return;
    }
  }

  // A wake while a pass runs gets one more pass: that pass may have looked before the delivery was visible.
  const passes = serialPass(drain, () => deps !== undefined && !stopped, (err) =>
    deps!.logger.error({ reason: (err as Error)?.name ?? 'Error' }, 'back-channel logout pass failed'),
  );
  function wake(): void {
    passes.request();
  }

  /** The retry this instance scheduled is due in `delayMs`: one timer, for the earliest (real time, not the clock's). */
  function wakeIn(delayMs: number): void {
    const at = Date.now() + delayMs;
    if (retryTimer && at >= retryAt) return;
    clearTimeout(retryTimer);
    retryAt = at;
    retryTimer = setTimeout(() => {
      retryTimer = undefined;
      retryAt = Infinity;
      wake();
    }, delayMs);
    retryTimer.unref();
  }

  return {
    start(d) {
      if (deps) return;
      deps = d;
      d.storage.orm.em.getEventManager().registerSubscriber(waker);
      timer = setInterval(wake, options.pollMs);
      timer.unref();
      wake();
    },
    async idle() {
      while (deps && !stopped) {
        if (passes.current) {
          await passes.current;
          continue;
        }
        const pending = await deps.storage.fork().count(BackchannelLogoutDelivery, { status: { $in: ['pending', 'sending'] } });
        if (pending === 0) return;
        await new Promise((resolve) => setTimeout(resolve, 50));
        wake();
      }
    },
    async stop() {
      stopped = true;
      waker.close();
      clearInterval(timer);
      clearTimeout(retryTimer);
      await passes.current;
    },
  };
}
