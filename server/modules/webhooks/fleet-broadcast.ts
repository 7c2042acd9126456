/**
 * Telling the other instances of a fleet (docs/architecture.md#horizontal-scale) that webhooks were written,
 * so their view of subscribed event names (subscribed-events.ts) is forgotten at once rather than at their
 * next poll. It reuses the broadcast the token state cache already runs between instances: PostgreSQL
 * LISTEN/NOTIFY, or Redis pub/sub with --redis-url (modules/tokens, openFleetChannel), on a connection of
 * its own.
 *
 * A message is `{"o": origin, "k": [], "w": 1}`: to the token state cache it is a well-formed invalidation of
 * no key, which changes nothing there; here `w` marks it as "webhooks changed". Nothing in it is trusted
 * beyond making this instance read the webhooks again. A lost message (the channel down, Redis pub/sub being
 * at most once) only delays delivery until the poll, which reads the view again anyway.
 */
import { randomUUID } from 'node:crypto';
import type { Deps } from '../../kernel/deps.ts';
import { openFleetChannel, type ChannelEvents } from '../tokens/index.ts';

export interface WebhookBroadcast {
  /** Tells the other instances that webhooks were written here; never throws. */
  announce(): void;
  close(): Promise<void>;
}

function changedBy(text: string): string | undefined {
  try {
    const parsed = JSON.parse(text) as { o?: unknown; w?: unknown };
    return parsed?.w === 1 && typeof parsed.o === 'string' ? parsed.o : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Opens the broadcast when the fleet has one (Redis configured, or PostgreSQL); undefined for a single
 * instance's SQLite or MariaDB without Redis, where the poll is the only way to hear of other writers.
 */
export async function openWebhookBroadcast(deps: Deps, changedElsewhere: () => void): Promise<WebhookBroadcast | undefined> {
  const origin = `webhooks-${randomUUID()}`;
  const events: ChannelEvents = {
    // Messages sent while not subscribed are lost: read the view again.
    up: changedElsewhere,
    down: () => undefined,
    message(text) {
      const from = changedBy(text);
      if (from !== undefined && from !== origin) changedElsewhere();
    },
  };
  const channel = await openFleetChannel(deps.config, deps.storage, events, deps.logger);
  if (!channel) return undefined;
  const message = JSON.stringify({ o: origin, k: [], w: 1 });
  return {
    announce() {
      channel.publish(message).catch((err) => deps.logger.warn({ reason: (err as Error)?.message }, 'webhooks: change not broadcast; other instances see it at their next poll'));
    },
    close: () => channel.close(),
  };
}
