/**
 * Abuse limits as the rest of the server sees them (architecture.md "Growing from seven modules to
 * fifteen": an interface in kernel/, implemented by a module). A bucket is a named policy (how many
 * points in what window, how long a key stays blocked); modules/limits defines the buckets and backs them
 * with memory or, with --redis-url, Redis, so that several instances share one count.
 */
export const LIMIT_BUCKETS = [
  /** Per client IP, every HTTP route and gRPC method (--rate-limit-rps / --rate-limit-burst). */
  'ip',
  /** Failed logins per account key (normalised email or phone), known or not: lockout (OWASP ASVS 2.2.1). */
  'login_failure',
  /** Mails and SMS per destination address or number and flow (reset, verification, magic link, OTP). */
  'message_destination',
  /** Wrong one-time codes per target and purpose, across re-issued codes. */
  'otp_guess',
] as const;

export type LimitBucket = (typeof LIMIT_BUCKETS)[number];

export interface RateLimiter {
  /**
   * Counts `points` (default 1) for `key` in `bucket`; throws AppError('too_many_requests') with
   * retryAfterSeconds once the bucket's allowance is spent. A disabled bucket never throws.
   */
  consume(bucket: LimitBucket, key: string, points?: number): Promise<void>;
  /** Seconds until `key` may act again in `bucket` (0 when it may now), without counting anything. */
  retryAfter(bucket: LimitBucket, key: string): Promise<number>;
  /** Forgets `key` in `bucket` (a successful login clears the account's failures). */
  reset(bucket: LimitBucket, key: string): Promise<void>;
  close(): Promise<void>;
}
