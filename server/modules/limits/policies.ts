/**
 * The buckets of kernel/limits.ts and their allowances. Thresholds come from flags where an operator has a
 * reason to change them; the rest are fixed at what the cited guidance asks.
 */
import type { Config } from '../../config/flags.ts';
import type { LimitBucket } from '../../kernel/limits.ts';

export interface BucketPolicy {
  /** Points a key may spend per window; 0 disables the bucket. */
  points: number;
  /** Window length in seconds. */
  windowSeconds: number;
  /** Once spent, the key stays blocked this long (seconds); 0 means until the window ends. */
  blockSeconds: number;
  /** Message of the refusal; never names the key (an address or account must not be echoed back). */
  message: string;
}

export type Policies = Record<LimitBucket, BucketPolicy>;

export function policiesFor(config: Pick<Config, 'rateLimitRps' | 'rateLimitBurst' | 'loginLockoutThreshold'>): Policies {
  return {
    // rps sustained, with up to `burst` requests allowed within one second; see ip-limiter.ts.
    ip: { points: config.rateLimitRps, windowSeconds: 1, blockSeconds: 0, message: 'too many requests: slow down' },
    // OWASP ASVS 2.2.1: lockout after repeated failures, at most 100 failed attempts per hour per account.
    // The threshold (at most 25) over a 15-minute window allows at most 4 x 25 = 100 an hour.
    login_failure: { points: config.loginLockoutThreshold, windowSeconds: 15 * 60, blockSeconds: 15 * 60, message: 'invalid credentials' },
    message_destination: { points: 10, windowSeconds: 3600, blockSeconds: 0, message: 'too many messages sent to this destination: try again later' },
    // Five wrong codes per code (otp.service.ts), and at most ten per target and purpose an hour across
    // re-issued codes, so asking for a new code never buys more guesses.
    otp_guess: { points: 10, windowSeconds: 3600, blockSeconds: 0, message: 'too many failed attempts: try again later' },
  };
}
