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
  /**
   * Extra points a key may spend once `points` is spent in a window, refilled every `windowSeconds`
   * (rate-limiter-flexible's BurstyRateLimiter). Only the per-IP bucket has one.
   */
  burst?: { points: number; windowSeconds: number };
  /**
   * Longer windows counted along with the first (`points` per `windowSeconds`), each with its own allowance:
   * the wait after a spent allowance grows with repeated failures (OWASP ASVS 2.2.1 "ever increasing delays
   * between attempts"). A bucket with escalation counts in fixed windows aligned on the app's clock
   * (kernel/deps.ts Clock; tiered-limiter.ts), each window a whole multiple of the one before, so a refusal
   * always ends with the window that refused. `blockSeconds` and `burst` do not apply to it.
   */
  escalation?: readonly LimitTier[];
  /** Message of the refusal; never names the key (an address or account must not be echoed back). */
  message: string;
}

export interface LimitTier {
  points: number;
  windowSeconds: number;
}

export type Policies = Record<LimitBucket, BucketPolicy>;

/**
 * The --rate-limit-burst allowance refills over this many seconds: a client may go `burst` requests over
 * --rate-limit-rps once per window, so its sustained rate stays at most rps + burst / 10.
 */
export const IP_BURST_WINDOW_SECONDS = 10;

/**
 * OWASP ASVS 2.2.1 allows at most 100 failed attempts an hour per account. Fixed windows of 20 minutes:
 * any 60 minutes meet at most four of them (a fifth would have to start more than 80 minutes after the
 * first), so a threshold of at most 25 per window keeps every hour under 4 x 25 = 100.
 */
export const LOGIN_WINDOW_SECONDS = 20 * 60;
export const MAX_LOGIN_LOCKOUT_THRESHOLD = 25;

/**
 * Wrong admin secrets per client address (IPv6 by /64, client-key.ts), login and header alike: 10 a minute,
 * 20 in 15 minutes, 40 in 4 hours, 80 a day. Each spent allowance makes the next wait longer (1 min, 15 min,
 * 4 h, then the rest of the day), so one address gets at most 80 guesses a day (OWASP ASVS 2.2.1 "ever
 * increasing delays"). Ten a minute leave an administrator room for a few typos, and a test suite that
 * calls admin_login with a wrong secret over each protocol room to do so.
 */
export const ADMIN_SECRET_ADDRESS_TIERS: readonly LimitTier[] = [
  { points: 10, windowSeconds: 60 },
  { points: 20, windowSeconds: 15 * 60 },
  { points: 40, windowSeconds: 4 * 3600 },
  { points: 80, windowSeconds: 24 * 3600 },
];

/**
 * Wrong admin secrets from all addresses together (the secret is one account, OWASP ASVS 2.2.1): 20 a minute,
 * 50 an hour (clock hours: any 60 minutes meet at most two, so at most 100 failures in any hour), 200 a day,
 * however many addresses a botnet spreads them over. Addresses that presented the right secret in the last
 * ADMIN_KNOWN_ADDRESS_SECONDS are not held by this total (admin-secret-guard.ts says why).
 */
export const ADMIN_SECRET_TOTAL_TIERS: readonly LimitTier[] = [
  { points: 20, windowSeconds: 60 },
  { points: 50, windowSeconds: 3600 },
  { points: 200, windowSeconds: 24 * 3600 },
];

/**
 * An address that presented the right admin secret is remembered this long: two weeks, from its first right
 * secret in that time. (The in-memory store expires a key with one timer, which cannot exceed 2^31 ms, 24.8 days.)
 */
export const ADMIN_KNOWN_ADDRESS_SECONDS = 14 * 24 * 3600;

export const ADMIN_SECRET_LIMIT_MESSAGE = 'too many failed admin sign-ins: try again later';

function tiered(tiers: readonly LimitTier[], message: string): BucketPolicy {
  const [first, ...longer] = tiers;
  return { points: first!.points, windowSeconds: first!.windowSeconds, blockSeconds: 0, escalation: longer, message };
}

export function policiesFor(config: Pick<Config, 'rateLimitRps' | 'rateLimitBurst' | 'loginLockoutThreshold'>): Policies {
  return {
    ip: {
      points: config.rateLimitRps,
      windowSeconds: 1,
      blockSeconds: 0,
      ...(config.rateLimitBurst > 0 ? { burst: { points: config.rateLimitBurst, windowSeconds: IP_BURST_WINDOW_SECONDS } } : {}),
      message: 'too many requests: slow down',
    },
    // The refusal is the same as a wrong password's (login-flow.ts turns it into `invalid credentials`).
    login_failure: { points: config.loginLockoutThreshold, windowSeconds: LOGIN_WINDOW_SECONDS, blockSeconds: LOGIN_WINDOW_SECONDS, message: 'invalid credentials' },
    message_destination: { points: 10, windowSeconds: 3600, blockSeconds: 0, message: 'too many messages sent to this destination: try again later' },
    // Five wrong codes per code (otp.service.ts), and at most ten per target and purpose an hour across
    // re-issued codes, so asking for a new code never buys more guesses.
    otp_guess: { points: 10, windowSeconds: 3600, blockSeconds: 0, message: 'too many failed attempts: try again later' },
    // Signed assertions cannot be guessed; the cap bounds the signature checks and JWKS refetches one client_id
    // or issuer can cause. Set high because the key is whatever an attacker claims: a low one would let them lock out the client.
    client_assertion_failure: { points: 50, windowSeconds: 300, blockSeconds: 0, message: 'too many failed client assertions: try again later' },
    // Registered secrets are 256 random bits, but the instance client's is the operator's choice: 30 failures per
    // 5 minutes per client_id and per IP. Not lower: the client_id is not secret, so anyone can spend its allowance.
    client_auth_failure: { points: 30, windowSeconds: 300, blockSeconds: 0, message: 'too many failed client authentications: try again later' },
    // An anonymous passkey ceremony stores a challenge row and its answer costs a signature check: 60 public
    // ceremony calls a minute per IP (one sign-in is two) bound the rows and the CPU one client can cause
    // (OWASP ASVS 11.1.4), whatever --rate-limit-rps allows, and leave room for people behind one NAT.
    webauthn_ceremony: { points: 60, windowSeconds: 60, blockSeconds: 0, message: 'too many passkey sign-in attempts: try again later' },
    // Home-realm discovery answers which organization owns a domain: 30 look-ups a minute per IP serve a person
    // typing addresses and bound how fast one client can map domains to organizations (OWASP ASVS 11.1.4).
    // Each dynamic registration (RFC 7591 section 5: the endpoint may be open to anyone) writes a client row:
    // 10 an hour per IP serve a developer trying things and bound how fast one address can fill the registry.
    client_registration: { points: 10, windowSeconds: 3600, blockSeconds: 0, message: 'too many client registrations from this address: try again later' },
    org_discovery: { points: 30, windowSeconds: 60, blockSeconds: 0, message: 'too many sign-in look-ups: try again later' },
    // verify_org_domain makes one TXT lookup each: 10 per organization in 10 minutes is ample while a record
    // propagates, and bounds the queries anyone with org-admin rights can make the server send.
    dns_lookup: { points: 10, windowSeconds: 600, blockSeconds: 0, message: 'too many domain verification attempts for this organization: wait a few minutes for the DNS record to propagate, then try again' },
    // One organization's identity provider, whatever IPs it calls from: 1,200 SCIM requests a minute per
    // endpoint token bound the writes one provider (or one leaked token) can make, above the pace Entra ID
    // and Okta keep during an initial sync, and apart from --rate-limit-rps, which is per IP.
    scim_request: { points: 1200, windowSeconds: 60, blockSeconds: 0, message: 'too many SCIM requests: slow down' },
    // One message for both: the refusal must not say whether this address or the whole server is held.
    admin_secret_failure: tiered(ADMIN_SECRET_ADDRESS_TIERS, ADMIN_SECRET_LIMIT_MESSAGE),
    admin_secret_failure_total: tiered(ADMIN_SECRET_TOTAL_TIERS, ADMIN_SECRET_LIMIT_MESSAGE),
    // A marker, not a limit: counted on each right secret, read to tell a known address, never refused.
    admin_known_address: { points: Number.MAX_SAFE_INTEGER, windowSeconds: ADMIN_KNOWN_ADDRESS_SECONDS, blockSeconds: 0, message: 'unused' },
    // A user code is 8 of 20 letters, 20^8 = 2.6e10 values (RFC 8628 section 6.1). 10 wrong codes per IP and
    // per session in 15 minutes, then locked for an hour: room for typos, and at most ~200 guesses a day per
    // IP, each hitting one of a thousand live codes with odds 4e-8 (RFC 8628 section 5.1).
    device_user_code_guess: { points: 10, windowSeconds: 900, blockSeconds: 3600, message: 'too many wrong codes: try again later' },
    // export_my_data reads every table about the account (docs/limits.md#rate-limits): 5 copies an hour per account
    // serve a person who retries a download and bound what one stolen session can make the database do.
    data_export: { points: 5, windowSeconds: 3600, blockSeconds: 0, message: 'too many data exports for this account: try again later' },
  };
}
