/**
 * The broadcast of invalidations between instances that share a database
 * (docs/architecture.md#horizontal-scale): PostgreSQL LISTEN/NOTIFY, or Redis pub/sub with --redis-url. A message names the keys a write
 * ended or changed; heartbeats prove the channel still delivers, because the long trust window is only safe
 * while it does.
 */
export const CHANNEL_NAME = 'portcullis_token_state';

/** What a channel reports to the cache. */
export interface ChannelEvents {
  /** Subscribed: from now on every message published by any instance arrives. */
  up(): void;
  /** Messages may be lost from now on. */
  down(reason: string): void;
  message(text: string): void;
}

export interface InvalidationChannel {
  readonly kind: 'postgres' | 'redis';
  /** Sends to every subscribed instance, this one included. Rejects when the message could not be sent. */
  publish(text: string): Promise<void>;
  close(): Promise<void>;
}

/** At most this many keys per message (PostgreSQL payloads stop at 8000 bytes; a key is at most 66). */
const KEYS_PER_MESSAGE = 100;
const KEY_PATTERN = /^[us]:[A-Za-z0-9_-]{1,64}$/;

export type ChannelMessage = { origin: string; keys: string[] } | { origin: string; heartbeat: true };

export function encodeInvalidations(origin: string, keys: readonly string[]): string[] {
  const messages: string[] = [];
  for (let i = 0; i < keys.length; i += KEYS_PER_MESSAGE) {
    messages.push(JSON.stringify({ o: origin, k: keys.slice(i, i + KEYS_PER_MESSAGE) }));
  }
  return messages;
}

export function encodeHeartbeat(origin: string): string {
  return JSON.stringify({ o: origin, h: 1 });
}

/**
 * Reads a message; undefined when it is not one of ours. Anyone who can reach the database or Redis can
 * publish here, so a message is only ever trusted to make the cache forget, never to make it believe.
 */
export function decodeMessage(text: string): ChannelMessage | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null) return undefined;
  const { o: origin, k: keys, h: heartbeat } = parsed as Record<string, unknown>;
  if (typeof origin !== 'string' || origin.length > 64) return undefined;
  if (heartbeat === 1) return { origin, heartbeat: true };
  if (!Array.isArray(keys) || keys.length > KEYS_PER_MESSAGE) return undefined;
  if (!keys.every((key): key is string => typeof key === 'string' && KEY_PATTERN.test(key))) return undefined;
  return { origin, keys };
}
