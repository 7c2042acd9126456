/**
 * Abuse limits as the rest of the server sees them
 * (docs/architecture.md#modules-and-the-registry: an interface in kernel/, implemented by a module). A bucket is a named policy (how many
 * points in what window, how long a key stays blocked); modules/limits defines the buckets and backs them
 * with memory or, with --redis-url, Redis, so that several instances share one count.
 */
import { AppError } from './errors.ts';
export const LIMIT_BUCKETS = [
  /** Per client IP, every HTTP route and gRPC method (--rate-limit-rps / --rate-limit-burst). */
  'ip',
  /** Failed logins per account key (normalised email or phone), known or not: lockout (OWASP ASVS 2.2.1). */
  'login_failure',
  /** Mails and SMS per destination address or number and flow (reset, verification, magic link, OTP). */
  'message_destination',
  /** Wrong one-time codes per target and purpose, across re-issued codes. */
  'otp_guess',
  /** Failed client assertions (private_key_jwt, jwt-bearer grant) per client_id or assertion issuer. */
  'client_assertion_failure',
  /** Failed client secret authentications (client_secret_basic / _post) per client_id and per client IP. */
  'client_auth_failure',
  /** Public passkey ceremonies (webauthn_login_options / _verify) per client IP: each writes or verifies. */
  'webauthn_ceremony',
  /** Public home-realm discovery look-ups (org_discovery) per client IP: each reads the domain routing. */
  'org_discovery',
  /** Outbound DNS lookups of verify_org_domain per organization: the server must not be a DNS hammer. */
  'dns_lookup',
  /** Inbound SCIM requests per SCIM endpoint token (modules/scim): one identity provider's share. */
  'scim_request',
  /** Wrong --admin-secret guesses (admin login or the x-service-admin-secret header) per client IP, with backoff. */
  'admin_secret_failure',
  /** Wrong --admin-secret guesses from all addresses together, so that spreading them over many IPs gains nothing. */
  'admin_secret_failure_total',
  /** Client addresses that presented the right --admin-secret recently (counted, never refused). */
  'admin_known_address',
  /** Wrong device-flow user codes (RFC 8628 section 5.1) per client IP and per signed-in session. */
  'device_user_code_guess',
  /** Dynamic client registrations (RFC 7591, POST /oauth/register) per client IP. */
  'client_registration',
  /** Copies of one account's personal data (export_my_data) per account: each reads every table about it. */
  'data_export',
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
  /**
   * Gives back `points` (default 1) that `consume` counted for `key` in the current window: an attempt
   * counted before its outcome was known turned out to be a success.
   */
  refund(bucket: LimitBucket, key: string, points?: number): Promise<void>;
  /** Points counted for `key` in `bucket`'s current window (its longest window for a bucket with several). */
  counted(bucket: LimitBucket, key: string): Promise<number>;
  close(): Promise<void>;
}

/** Which bucket refused, kept on the error (log-only detail) so transports can count refusals by bucket. */
interface LimitDetail {
  limitBucket: LimitBucket;
}

/** The refusal a RateLimiter throws: too_many_requests with Retry-After, tagged with its bucket. */
export function limitRefusal(bucket: LimitBucket, message: string, retryAfterSeconds: number): AppError {
  const error = new AppError('too_many_requests', message, { limitBucket: bucket } satisfies LimitDetail);
  error.retryAfterSeconds = Math.max(1, Math.ceil(retryAfterSeconds));
  return error;
}

/** The bucket of a limiter's refusal; undefined for any other error. */
export function limitBucketOf(error: unknown): LimitBucket | undefined {
  if (!(error instanceof AppError) || error.kind !== 'too_many_requests') return undefined;
  const bucket = (error.detail as Partial<LimitDetail> | undefined)?.limitBucket;
  return bucket && (LIMIT_BUCKETS as readonly string[]).includes(bucket) ? bucket : undefined;
}
