/**
 * The composition root's product: everything a handler may reach, built once per app by buildApp().
 * No module-level singletons; tests build their own Deps through buildApp(config, overrides).
 */
import type { Logger } from 'pino';
import type { Config } from '../config/flags.ts';
import type { Storage } from '../storage/types.ts';
import type { Authenticators } from './authenticators.ts';
import type { SigningKeys } from './signing-keys.ts';
import type { Sealer } from './encryption.ts';
import type { RateLimiter } from './limits.ts';
import type { Metrics } from './metrics.ts';

export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/**
 * What the whole server reaches is declared here. A module whose service only that module reads adds its
 * member by declaration merging (modules/fga/fga.service.ts adds `fga`), so that the kernel imports nothing
 * of the app (docs/architecture.md#inside-server).
 */
export interface Deps {
  readonly config: Config;
  readonly logger: Logger;
  readonly storage: Storage;
  readonly clock: Clock;
  readonly version: string;
  readonly authenticators: Authenticators;
  readonly keys: SigningKeys;
  /** Encrypts secrets at rest (TOTP seeds, OTP digests, upstream client secrets). */
  readonly sealer: Sealer;
  /** Abuse limits (kernel/limits.ts): per IP, per account, per destination, per one-time code target. */
  readonly limits: RateLimiter;
  /** Counters served on the metrics listener (limited requests, login outcomes). */
  readonly metrics: Metrics;
  /** Wakes the message outbox worker (modules/messages) after a commit; absent where no worker runs. */
  readonly outbox?: { wake(): void };
}
