/**
 * Which commits wake the delivery worker, and how often (docs/events.md#the-delivery). A commit that recorded
 * only events no enabled webhook listens to wakes nothing: its events wait for the poll, which hands them
 * over in batches (subscribed-events.ts says why that loses none). Commits within `coalesceMs` of the first
 * share one wake, so a burst of logins costs one fan-out and one claim rather than one of each per commit.
 * Webhook writes forget the view of subscribed names here and, over the fleet's broadcast
 * (fleet-broadcast.ts), on the other instances.
 */
import type { Deps } from '../../kernel/deps.ts';
import type { Committed } from './commit-wake.ts';
import { SubscribedEvents } from './subscribed-events.ts';
import { openWebhookBroadcast, type WebhookBroadcast } from './fleet-broadcast.ts';

export interface GateCounts {
  /** Commits that recorded events no enabled webhook listens to, left to the poll. */
  skippedWakes: number;
  /** Commit wakes folded into one already asked for. */
  coalescedWakes: number;
  /** Webhook changes heard from other instances over the fleet's broadcast. */
  remoteChanges: number;
}

export class CommitWakeGate {
  readonly counts: GateCounts = { skippedWakes: 0, coalescedWakes: 0, remoteChanges: 0 };
  readonly #subscribed: SubscribedEvents;
  readonly #fanOutSoon: () => void;
  readonly #coalesceMs: number;
  #timer: NodeJS.Timeout | undefined;
  #broadcast: WebhookBroadcast | undefined;
  #opening: Promise<void> | undefined;
  #closed = false;

  /** `fanOutSoon` asks the worker for a fan-out pass (not a claim: one follows only if it created deliveries). */
  constructor(deps: () => Deps | undefined, fanOutSoon: () => void, coalesceMs: number) {
    this.#subscribed = new SubscribedEvents(deps);
    this.#fanOutSoon = fanOutSoon;
    this.#coalesceMs = coalesceMs;
  }

  /** Reads the view and opens the broadcast (the worker's start). */
  open(deps: Deps): void {
    this.#subscribed.reload();
    this.#opening = openWebhookBroadcast(deps, () => {
      this.counts.remoteChanges += 1;
      this.#subscribed.forget();
    }).then(
      async (opened) => {
        if (this.#closed) await opened?.close();
        else this.#broadcast = opened;
      },
      (err) => deps.logger.warn({ reason: (err as Error)?.message }, 'webhooks: no broadcast between instances; webhook changes elsewhere are seen at the next poll'),
    );
  }

  /** The poll: reading the view again is how a change whose broadcast was lost is seen. */
  polled(): void {
    this.#subscribed.reload();
  }

  /** Webhooks were written here: forget the view, and have the other instances forget theirs. */
  webhooksChanged(): void {
    this.#subscribed.forget();
    this.#broadcast?.announce();
  }

  /** A transaction committed (commit-wake.ts). */
  committed(commit: Committed): void {
    if (commit.webhooksChanged) this.webhooksChanged();
    if (commit.eventNames.size === 0 || this.#closed) return;
    if (!this.#subscribed.mayHaveSubscribers(commit.eventNames)) {
      this.counts.skippedWakes += 1;
      return;
    }
    if (this.#timer) {
      this.counts.coalescedWakes += 1;
      return;
    }
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#fanOutSoon();
    }, this.#coalesceMs);
  }

  /** Resolves once the broadcast is open (or known absent) and no read of the view is under way. */
  async settled(): Promise<void> {
    await this.#opening;
    await this.#subscribed.settled();
  }

  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#timer);
    await this.settled();
    await this.#broadcast?.close();
  }
}
