/**
 * The composition root's product: everything a handler may reach, built once per app by buildApp().
 * No module-level singletons; tests build their own Deps through buildApp(config, overrides).
 */
import type { Logger } from 'pino';
import type { Config } from '../config/flags.ts';
import type { Storage } from '../storage/types.ts';
import type { Authenticators } from '../ops/auth.ts';
import type { SigningKeys } from '../modules/tokens/signing-keys.ts';
import type { Sealer } from './encryption.ts';
import type { RateLimiter } from './limits.ts';
import type { Metrics } from './metrics.ts';
import type { FgaService } from '../modules/fga/fga.service.ts';

export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

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
  /** The embedded FGA engine's store and model; undefined when FGA is off (MongoDB main database, no --fga-store). */
  readonly fga?: FgaService;
  /** Wakes the message outbox worker (modules/messages) after a commit; absent where no worker runs. */
  readonly outbox?: { wake(): void };
}
