/**
 * The webhook delivery worker (docs/events.md; docs/architecture.md#background-workers). Durable rows and
 * leases, so that of several instances exactly one sends a row at a time and a row whose sender died is
 * sent again once its lease runs out; nothing is held in memory that another instance would need.
 *
 * - It is woken when a transaction that recorded an event commits (commit-wake.ts), and by a slow poll
 *   for what other instances leave: their events, their retries, their expired leases. A commit whose
 *   events no enabled webhook listens to wakes nothing (subscribed-events.ts; the poll stamps those events
 *   in batches), commits within `wakeCoalesceMs` of each other share one pass, and a fan-out that created
 *   no delivery is not followed by a claim.
 * - It claims due deliveries in batches (claim.ts) and sends them with bounded concurrency: at most
 *   `concurrency` requests in flight, over keep-alive connections (send.ts WebhookAgents). A slow endpoint
 *   holds one slot for at most one attempt timeout and delays no other webhook.
 * - It records outcomes in batches (outcomes.ts), each attempt leaving one WebhookLog row. A failed attempt
 *   is retried with exponential backoff and jitter up to `maxAttempts`; this instance wakes itself when the
 *   earliest retry it scheduled is due.
 *
 * Delivery is at least once: a crash after the receiver answered and before the result was stored sends
 * the same delivery again after the lease, with the same X-Service-Delivery id. Logs carry ids, the event
 * name and the outcome, never the endpoint's headers, the body or the receiver's answer.
 */
import type { Deps } from '../../kernel/deps.ts';
import { serialPass } from '../../kernel/serial-pass.ts';
import { Webhook, WebhookDelivery } from './webhook.entity.ts';
import { undeliveredEvents, fanOut } from './fan-out.ts';
import { attemptWebhook, webhookBody, DEFAULT_ATTEMPT_TIMEOUT_MS, type WebhookTarget } from './attempt.ts';
import { claimDue, type ClaimedDelivery } from './claim.ts';
import { ERASURE_EVENT, erasedEventLogBody } from './erased-event.ts';
import { createOutcomeRecorder, type Outcome } from './outcomes.ts';
import { EventCommitWaker } from './commit-wake.ts';
import { CommitWakeGate, type GateCounts } from './commit-wake-gate.ts';
import { WebhookAgents } from './send.ts';
import { EventOutbox } from '../events/index.ts';

export interface WebhookWorkerOptions {
  /** The slow poll for work this instance was not woken for (other instances' events, retries and leases). */
  pollMs: number;
  retryBaseMs: number;
  retryMaxMs: number;
  maxAttempts: number;
  /** Per attempt, DNS included. */
  timeoutMs: number;
  /** Longer than one attempt plus its bookkeeping. */
  leaseMs: number;
  /** Requests in flight at once from this instance (also the keep-alive sockets kept per endpoint). */
  concurrency: number;
  /** Events fanned out per pass. */
  fanOutBatch: number;
  /**
   * Deliveries claimed in one transaction at most. This instance holds at most `concurrency` + 2 x
   * `claimBatch` claims (sending, waiting for a request slot, or waiting for their outcome's commit), so
   * that claims and commits overlap the requests.
   */
  claimBatch: number;
  /**
   * A commit's wake waits this long for others to share its pass: a burst of logins costs one fan-out and
   * one claim rather than one of each per commit.
   */
  wakeCoalesceMs: number;
}

export const DEFAULT_WEBHOOK_OPTIONS: WebhookWorkerOptions = {
  pollMs: 5000,
  retryBaseMs: 5000,
  retryMaxMs: 30 * 60_000,
  maxAttempts: 8,
  timeoutMs: DEFAULT_ATTEMPT_TIMEOUT_MS,
  leaseMs: 60_000,
  concurrency: 64,
  fanOutBatch: 100,
  claimBatch: 128,
  wakeCoalesceMs: 2,
};

/** Passes and their steps since the start (tests, diagnostics). */
export interface WebhookWorkerStats extends GateCounts {
  /** Fan-out transactions run. */
  fanOuts: number;
  /** Claim rounds run. */
  claims: number;
}

export interface WebhookWorker {
  start(deps: Deps): void;
  /** Looks for work now; cheap and never throws. */
  wake(): void;
  /** Webhooks were written without the ORM's unit of work (insertMany, nativeUpdate): read them again. */
  webhooksChanged(): void;
  stats(): WebhookWorkerStats;
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

type HookById = Map<string, WebhookTarget & { enabled: boolean }>;

export function createWebhookWorker(overrides: Partial<WebhookWorkerOptions> = {}): WebhookWorker {
  const options = { ...DEFAULT_WEBHOOK_OPTIONS, ...overrides };
  let deps: Deps | undefined;
  let poll: NodeJS.Timeout | undefined;
  let retryTimer: NodeJS.Timeout | undefined;
  let retryAt = Infinity;
  /** Events may wait for fan-out (a commit, the poll, a full fan-out batch). */
  let fanOutWanted = false;
  /** Deliveries may be due (a fan-out, the poll, a retry's time, a full claim batch). */
  let claimWanted = false;
  let stopped = false;
  const inflight = new Map<string, Promise<void>>();
  const agents = new WebhookAgents(options.concurrency);
  const recorder = createOutcomeRecorder(() => deps!);
  const gate = new CommitWakeGate(() => deps, () => {
    fanOutWanted = true;
    pump();
  }, options.wakeCoalesceMs);
  const waker = new EventCommitWaker((commit) => gate.committed(commit));
  const counts = { fanOuts: 0, claims: 0 };
  const maxHeld = options.concurrency + 2 * options.claimBatch;
  /** Requests in flight, at most `concurrency`; claims waiting for a slot wait in line. */
  let sending = 0;
  const waitingForSlot: (() => void)[] = [];

  function takeSlot(): Promise<void> {
    if (sending < options.concurrency) {
      sending += 1;
      return Promise.resolve();
    }
    return new Promise((resolve) => waitingForSlot.push(resolve));
  }

  function releaseSlot(): void {
    const next = waitingForSlot.shift();
    if (next) next();
    else sending -= 1;
  }

  async function hooksOf(rows: readonly ClaimedDelivery[]): Promise<HookById> {
    const ids = [...new Set(rows.map((row) => row.webhookId))];
    const hooks = await deps!.storage.fork().find(Webhook, { id: { $in: ids } });
    return new Map(hooks.map((hook) => [hook.id, hook]));
  }

  function scheduleRetry(at: Date): void {
    if (stopped || at.getTime() >= retryAt) return;
    retryAt = at.getTime();
    clearTimeout(retryTimer);
    retryTimer = setTimeout(() => {
      retryAt = Infinity;
      claimWanted = true;
      pump();
    }, Math.max(0, retryAt - deps!.clock.now().getTime()));
    retryTimer.unref();
  }

  function outcomeOf(row: ClaimedDelivery, hook: WebhookTarget, body: string, result: Awaited<ReturnType<typeof attemptWebhook>>): Outcome {
    const now = deps!.clock.now();
    // A user.deleted body names an erased account: its log keeps the pseudonym (erased-event.ts).
    const request = row.eventName === ERASURE_EVENT ? erasedEventLogBody(deps!.config, body) : body;
    const log = { webhookId: hook.id, httpStatus: result.status, request, response: result.response, at: now };
    if (result.ok) return { kind: 'delivered', row, log };
    if (result.refused || row.attempts >= options.maxAttempts) return { kind: 'failed', row, log };
    return { kind: 'retry', row, log, next: new Date(now.getTime() + webhookRetryDelayMs(options, row.attempts)) };
  }

  async function attempt(row: ClaimedDelivery, hook: (WebhookTarget & { enabled: boolean }) | undefined): Promise<void> {
    // Deleted or switched off since the fan-out: nothing to send (delete_webhook also drops the row).
    if (!hook || !hook.enabled) return recorder.record({ kind: 'dropped', row });
    await takeSlot();
    let body: string;
    let result: Awaited<ReturnType<typeof attemptWebhook>>;
    try {
      // Stopping, or a claim that waited so long in line that its lease could run out during the request
      // (then another instance may take the row): hand it back unsent rather than risk two senders.
      if (stopped || deps!.clock.now().getTime() + options.timeoutMs >= row.leaseUntil.getTime()) return await recorder.record({ kind: 'handed-back', row });
      body = webhookBody(hook, row.payload);
      result = await attemptWebhook(deps!.config, hook, body, { deliveryId: row.id, timeoutMs: options.timeoutMs, agents });
    } finally {
      releaseSlot();
    }
    const outcome = outcomeOf(row, hook, body, result);
    await recorder.record(outcome);
    if (outcome.kind === 'handed-back') return;
    const kind = outcome.kind === 'retry' ? 'retry' : outcome.kind === 'delivered' ? 'delivered' : 'failed';
    deps!.metrics.webhookDelivery(row.eventName, kind);
    if (outcome.kind === 'delivered') return;
    const log = { delivery: row.id, webhook: hook.id, event: row.eventName, attempts: row.attempts, status: result.status };
    const reason = result.status ? 'non-2xx answer' : result.response;
    if (outcome.kind === 'failed') deps!.logger.error({ ...log, reason }, 'webhook delivery failed for good');
    else if (outcome.kind === 'retry') {
      scheduleRetry(outcome.next);
      deps!.logger.warn({ ...log, reason, retryAt: outcome.next.toISOString() }, 'webhook delivery failed; will retry');
    }
  }

  function launch(row: ClaimedDelivery, hook: (WebhookTarget & { enabled: boolean }) | undefined): void {
    const run = attempt(row, hook)
      .catch((err) => deps!.logger.error({ delivery: row.id, reason: (err as Error)?.name ?? 'Error' }, 'webhook attempt bookkeeping failed'))
      .finally(() => {
        inflight.delete(row.id);
        // A backlog: the freed slots take the next batch.
        if (claimWanted) pump();
      });
    inflight.set(row.id, run);
  }

  async function claimAndLaunch(): Promise<void> {
    const limit = Math.min(maxHeld - inflight.size, options.claimBatch);
    claimWanted = false;
    counts.claims += 1;
    const { claimed, seen, expired } = await claimDue(deps!, limit, [...inflight.keys()], options);
    // A batch as long as asked for may hide more due rows.
    if (seen >= limit) claimWanted = true;
    for (const row of expired) deps!.metrics.webhookDelivery(row.eventName, 'failed');
    if (claimed.length === 0) return;
    const hooks = await hooksOf(claimed);
    for (const row of claimed) launch(row, hooks.get(row.webhookId));
  }

  async function runPass(): Promise<void> {
    for (;;) {
      if (stopped) return;
      if (fanOutWanted) {
        fanOutWanted = false;
        const events = await undeliveredEvents(deps!, options.fanOutBatch);
        if (events.length > 0) {
          counts.fanOuts += 1;
          if ((await fanOut(deps!, events)) > 0) claimWanted = true;
          if (events.length === options.fanOutBatch) fanOutWanted = true;
        }
        continue;
      }
      // Claims stay batches: the next one waits until a whole batch fits (or nothing is held).
      if (claimWanted && !stopped && (inflight.size + options.claimBatch <= maxHeld || inflight.size === 0)) {
        await claimAndLaunch();
        continue;
      }
      return;
    }
  }

  // Asked for while a pass runs: one more after it (it may have looked before the ask).
  const passes = serialPass(runPass, () => deps !== undefined && !stopped, (err) =>
    deps!.logger.error({ reason: (err as Error)?.name ?? 'Error' }, 'webhook worker pass failed'),
  );
  function pump(): void {
    passes.request();
  }

  /** Looks for new events and due deliveries. */
  function wake(): void {
    fanOutWanted = true;
    claimWanted = true;
    pump();
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
      d.storage.orm.em.getEventManager().registerSubscriber(waker);
      gate.open(d);
      // The poll also reads the subscribed names again: a webhook added on another instance is seen here
      // within one poll, and until then this instance's events for it wait for the poll, not longer.
      poll = setInterval(() => {
        gate.polled();
        wake();
      }, options.pollMs);
      poll.unref();
      wake();
    },
    wake,
    webhooksChanged: () => gate.webhooksChanged(),
    stats: () => ({ ...counts, ...gate.counts }),
    async idle() {
      while (deps && !stopped) {
        if (passes.current || inflight.size > 0) {
          await Promise.all([passes.current, ...inflight.values()]);
          continue;
        }
        await recorder.drained();
        await gate.settled();
        const { events, deliveries, next } = await outstanding();
        if (events === 0 && deliveries === 0 && !passes.current && inflight.size === 0) return;
        const waitMs = next ? Math.max(10, Math.min(options.pollMs, next.getTime() - deps.clock.now().getTime())) : 10;
        await new Promise((resolve) => setTimeout(resolve, waitMs));
        wake();
      }
    },
    // A graceful stop (docs/reverse-proxy.md#running-a-fleet): requests already sent finish, each within one
    // attempt timeout, and their outcomes are recorded, so another instance does not send them again; claims
    // still waiting for a request slot are handed back unsent.
    async stop() {
      stopped = true;
      waker.close();
      const gateClosed = gate.close();
      clearInterval(poll);
      clearTimeout(retryTimer);
      await passes.current;
      await Promise.all(inflight.values());
      await recorder.drained();
      await gateClosed;
      agents.close();
    },
  };
}
