/**
 * The webhook delivery worker (docs/events.md; docs/architecture.md#background-workers). It follows the
 * message outbox's pattern (modules/messages/worker.ts): durable rows, a claim by one conditional update
 * (compare-and-set on `attempts` and `status`) that is a lease, so of several instances exactly one sends a
 * row and a row whose sender died is claimed again once its lease runs out; a poll finds whatever a crash,
 * another instance or a retry left due. Nothing is held in memory that another instance would need.
 *
 * Unlike the message worker it keeps its slots busy continuously: a freed slot takes the next due row at
 * once, so a slow endpoint holds one slot for at most one attempt timeout and delays no other webhook
 * (the message worker waits for a whole batch). A failed attempt is retried with exponential backoff and
 * jitter up to `maxAttempts`, every attempt leaving one WebhookLog row.
 *
 * Delivery is at least once: a crash after the receiver answered and before the result was stored sends
 * the same delivery again after the lease, with the same X-Service-Delivery id. Logs carry ids, the event
 * name and the outcome, never the endpoint's headers, the body or the receiver's answer.
 */
import { randomUUID } from 'node:crypto';
import type { Deps } from '../../kernel/deps.ts';
import { WebhookDelivery, WebhookLog, Webhook, type WebhookDeliveryRow } from './webhook.entity.ts';
import { undeliveredEvents, fanOut } from './fan-out.ts';
import { attemptWebhook, webhookBody, DEFAULT_ATTEMPT_TIMEOUT_MS } from './attempt.ts';
import { EventOutbox } from '../events/index.ts';

export interface WebhookWorkerOptions {
  pollMs: number;
  retryBaseMs: number;
  retryMaxMs: number;
  maxAttempts: number;
  /** Per attempt, DNS included. */
  timeoutMs: number;
  /** Longer than one attempt plus its bookkeeping. */
  leaseMs: number;
  /** Requests in flight at once from this instance. */
  concurrency: number;
  /** Events fanned out per pass. */
  fanOutBatch: number;
}

export const DEFAULT_WEBHOOK_OPTIONS: WebhookWorkerOptions = {
  pollMs: 1000,
  retryBaseMs: 5000,
  retryMaxMs: 30 * 60_000,
  maxAttempts: 8,
  timeoutMs: DEFAULT_ATTEMPT_TIMEOUT_MS,
  leaseMs: 60_000,
  concurrency: 8,
  fanOutBatch: 100,
};

export interface WebhookWorker {
  start(deps: Deps): void;
  /** Looks for work now; cheap and never throws. */
  wake(): void;
  /** Resolves once no event waits for fan-out and no delivery is pending or in flight (tests, shutdown). */
  idle(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Exponential backoff with "equal jitter": half the doubled delay fixed, half random, so retries of many
 * deliveries that failed together (an endpoint outage) spread out instead of returning in lockstep.
 */
export function webhookRetryDelayMs(options: Pick<WebhookWorkerOptions, 'retryBaseMs' | 'retryMaxMs'>, attempts: number, random = Math.random): number {
  const ceiling = Math.min(options.retryMaxMs, options.retryBaseMs * 2 ** Math.max(0, attempts - 1));
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}

export function createWebhookWorker(overrides: Partial<WebhookWorkerOptions> = {}): WebhookWorker {
  const options = { ...DEFAULT_WEBHOOK_OPTIONS, ...overrides };
  let deps: Deps | undefined;
  let timer: NodeJS.Timeout | undefined;
  let filling: Promise<void> | undefined;
  let again = false;
  let stopped = false;
  const inflight = new Map<string, Promise<void>>();
  // Stopping cuts in-flight requests short instead of waiting up to a timeout for a slow endpoint.
  const stopping = new AbortController();

  function dueWhere(now: Date) {
    return { $or: [{ status: 'pending', nextAttemptAt: { $lte: now } }, { status: 'sending', leaseUntil: { $lt: now } }] };
  }

  async function claim(row: WebhookDeliveryRow): Promise<boolean> {
    const now = deps!.clock.now();
    const claimed = await deps!.storage.fork().nativeUpdate(
      WebhookDelivery,
      { id: row.id, attempts: row.attempts, status: row.status },
      { status: 'sending', attempts: row.attempts + 1, leaseUntil: new Date(now.getTime() + options.leaseMs), updatedAt: now },
    );
    if (claimed !== 1) return false;
    row.attempts += 1;
    return true;
  }

  async function attempt(row: WebhookDeliveryRow): Promise<void> {
    const { storage, clock, config, logger, metrics } = deps!;
    const mine = { id: row.id, attempts: row.attempts, status: 'sending' };
    const hook = await storage.fork().findOne(Webhook, { id: row.webhookId });
    if (!hook || !hook.enabled) {
      // Deleted or switched off since the fan-out: nothing to send (delete_webhook also drops the row).
      await storage.fork().nativeDelete(WebhookDelivery, mine);
      return;
    }
    const body = webhookBody(hook, row.payload);
    const result = await attemptWebhook(config, hook, body, { deliveryId: row.id, timeoutMs: options.timeoutMs, cancel: stopping.signal });
    const now = clock.now();
    if (stopping.signal.aborted && !result.ok) {
      // Cut short by shutdown: hand the claim back uncounted, so this or another instance sends it again.
      await storage.fork().nativeUpdate(WebhookDelivery, mine, { status: 'pending', attempts: row.attempts - 1, leaseUntil: null, updatedAt: now });
      return;
    }
    const outcome = result.ok ? 'delivered' : result.refused || row.attempts >= options.maxAttempts ? 'failed' : 'retry';
    const next = outcome === 'retry' ? new Date(now.getTime() + webhookRetryDelayMs(options, row.attempts)) : undefined;
    // The attempt's log and the delivery's new state commit together: one commit (one fsync) per attempt.
    await storage.fork().transactional(async (em) => {
      em.persist(em.create(WebhookLog, {
        id: randomUUID(), webhookId: hook.id, deliveryId: row.id, httpStatus: result.status, request: body, response: result.response,
        createdAt: now, updatedAt: now,
      }));
      await em.flush();
      if (outcome === 'delivered') await em.nativeDelete(WebhookDelivery, mine);
      else if (outcome === 'failed') await em.nativeUpdate(WebhookDelivery, mine, { status: 'failed', leaseUntil: null, updatedAt: now });
      else await em.nativeUpdate(WebhookDelivery, mine, { status: 'pending', leaseUntil: null, nextAttemptAt: next, updatedAt: now });
    });
    metrics.webhookDelivery(row.eventName, outcome);
    if (outcome === 'delivered') return;
    const log = { delivery: row.id, webhook: hook.id, event: row.eventName, attempts: row.attempts, status: result.status };
    const reason = result.status ? 'non-2xx answer' : result.response;
    if (outcome === 'failed') logger.error({ ...log, reason }, 'webhook delivery failed for good');
    else logger.warn({ ...log, reason, retryAt: next!.toISOString() }, 'webhook delivery failed; will retry');
  }

  /** A lease that ran out after the last attempt (its sender died): give up rather than send again. */
  async function expire(row: WebhookDeliveryRow): Promise<void> {
    const now = deps!.clock.now();
    const gaveUp = await deps!.storage.fork().nativeUpdate(
      WebhookDelivery,
      { id: row.id, attempts: row.attempts, status: row.status },
      { status: 'failed', leaseUntil: null, updatedAt: now },
    );
    if (gaveUp === 1) deps!.metrics.webhookDelivery(row.eventName, 'failed');
  }

  function launch(row: WebhookDeliveryRow): void {
    const run = attempt(row)
      .catch((err) => deps!.logger.error({ delivery: row.id, reason: (err as Error)?.name ?? 'Error' }, 'webhook attempt bookkeeping failed'))
      .finally(() => {
        inflight.delete(row.id);
        wake();
      });
    inflight.set(row.id, run);
  }

  /**
   * Due rows read ahead, so that a freed slot costs one claim and not a query: a stale candidate (claimed
   * meanwhile by another instance) just fails its compare-and-set. Read again once used up.
   */
  let candidates: WebhookDeliveryRow[] = [];
  let lastFanOut = 0;

  async function fill(): Promise<void> {
    do {
      again = false;
      // New events are fanned out at least once per poll interval even while a backlog is being worked off.
      if (candidates.length === 0 || Date.now() - lastFanOut >= options.pollMs) {
        lastFanOut = Date.now();
        const events = await undeliveredEvents(deps!, options.fanOutBatch);
        await fanOut(deps!, events);
        if (events.length === options.fanOutBatch) again = true;
      }
      if (stopped) return;
      if (candidates.length === 0 && inflight.size < options.concurrency) {
        const busy = [...inflight.keys()];
        const now = deps!.clock.now();
        const limit = options.concurrency * 4;
        candidates = await deps!.storage.fork().find(
          WebhookDelivery,
          busy.length ? { $and: [dueWhere(now), { id: { $nin: busy } }] } : dueWhere(now),
          { orderBy: { nextAttemptAt: 'asc', id: 'asc' }, limit },
        );
        // A full page may hide more due rows.
        if (candidates.length === limit) again = true;
      }
      while (!stopped && inflight.size < options.concurrency && candidates.length > 0) {
        const row = candidates.shift()!;
        if (inflight.has(row.id)) continue;
        if (row.attempts >= options.maxAttempts) await expire(row);
        else if (await claim(row)) launch(row);
      }
      if (candidates.length === 0 && inflight.size < options.concurrency && again === false) break;
    } while (again && !stopped);
  }

  function wake(): void {
    if (!deps || stopped) return;
    if (filling) {
      again = true;
      return;
    }
    filling = fill()
      .catch((err) => deps!.logger.error({ reason: (err as Error)?.name ?? 'Error' }, 'webhook worker pass failed'))
      .finally(() => {
        filling = undefined;
      });
  }

  async function outstanding(): Promise<{ events: number; deliveries: number; next?: Date }> {
    const em = deps!.storage.fork();
    const events = await em.count(EventOutbox, { deliveredAt: null });
    const next = await em.findOne(WebhookDelivery, { status: { $in: ['pending', 'sending'] } }, { orderBy: { nextAttemptAt: 'asc' } });
    return { events, deliveries: next ? 1 : 0, next: next?.nextAttemptAt };
  }

  return {
    start(d) {
      if (deps) return;
      deps = d;
      d.metrics.webhookBacklog(async () => {
        const em = d.storage.fork();
        const events = await em.count(EventOutbox, { deliveredAt: null });
        const deliveries = await em.count(WebhookDelivery, { status: { $in: ['pending', 'sending'] } });
        return { events, deliveries };
      });
      timer = setInterval(wake, options.pollMs);
      timer.unref();
      wake();
    },
    wake,
    async idle() {
      while (deps && !stopped) {
        if (filling || inflight.size > 0) {
          await Promise.all([filling, ...inflight.values()]);
          continue;
        }
        const { events, deliveries, next } = await outstanding();
        if (events === 0 && deliveries === 0 && !filling && inflight.size === 0) return;
        const waitMs = next ? Math.max(10, Math.min(options.pollMs, next.getTime() - deps.clock.now().getTime())) : 10;
        await new Promise((resolve) => setTimeout(resolve, waitMs));
        wake();
      }
    },
    async stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      stopping.abort();
      await filling;
      await Promise.all(inflight.values());
    },
  };
}
