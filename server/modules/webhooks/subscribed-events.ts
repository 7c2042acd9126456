/**
 * Which event names have at least one enabled webhook, held in memory so that a commit recording only events
 * nobody listens to (a login, with no `user.login` webhook) does not wake the delivery worker at all
 * (docs/events.md#the-delivery). Skipping a wake never loses an event: it stays in the outbox with no
 * `deliveredAt` and the worker's poll fans it out (stamps it) with the webhooks that exist by then, so a
 * view that is wrong for a while only delays delivery by at most one poll, never drops it.
 *
 * The view is forgotten (every name counts as subscribed) when a webhook is created or changed on this
 * instance (commit-wake.ts sees the commit) and reloaded after; the poll reloads it too, which is how a
 * webhook added on another instance of a fleet is seen. A delete or a disable only ever leaves names in the
 * view that no longer have webhooks, which costs an empty wake until the next reload.
 */
import type { Deps } from '../../kernel/deps.ts';
import { Webhook } from './webhook.entity.ts';

export class SubscribedEvents {
  /** Undefined while unknown (not loaded yet, or forgotten): then every event wakes the worker. */
  #names: ReadonlySet<string> | undefined;
  /** Counts forgets, so that a load which started before one does not restore what it forgot. */
  #generation = 0;
  #loading: Promise<void> | undefined;
  #reloadWanted = false;
  readonly #deps: () => Deps | undefined;

  constructor(deps: () => Deps | undefined) {
    this.#deps = deps;
  }

  /** False only when the view is known and none of `names` has an enabled webhook. */
  mayHaveSubscribers(names: Iterable<string>): boolean {
    const known = this.#names;
    if (!known) return true;
    for (const name of names) if (known.has(name)) return true;
    return false;
  }

  /** A webhook was created, changed or deleted: forget now, reload in the background. */
  forget(): void {
    this.#generation += 1;
    this.#names = undefined;
    this.reload();
  }

  /** Reads the view again (start, poll, after a forget); concurrent calls share one read. */
  reload(): void {
    if (this.#loading) {
      this.#reloadWanted = true;
      return;
    }
    const deps = this.#deps();
    if (!deps) return;
    const generation = this.#generation;
    this.#loading = this.#load(deps, generation)
      .catch((err) => deps.logger.warn({ reason: (err as Error)?.name ?? 'Error' }, 'webhooks: subscribed event names could not be read; every commit wakes the worker'))
      .finally(() => {
        this.#loading = undefined;
        if (this.#reloadWanted) {
          this.#reloadWanted = false;
          this.reload();
        }
      });
  }

  /** Resolves once no read is under way (tests). */
  async settled(): Promise<void> {
    while (this.#loading) await this.#loading;
  }

  async #load(deps: Deps, generation: number): Promise<void> {
    const hooks = await deps.storage.fork().find(Webhook, { enabled: true }, { fields: ['eventName'] });
    // A forget since the read started may concern a webhook the read did not see: keep the view unknown.
    if (generation !== this.#generation) {
      this.#reloadWanted = true;
      return;
    }
    this.#names = new Set(hooks.map((hook) => hook.eventName));
  }
}
