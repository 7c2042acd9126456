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
  /** Message of the refusal; never names the key (an address or account must not be echoed back). */
  message: string;
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
    org_discovery: { points: 30, windowSeconds: 60, blockSeconds: 0, message: 'too many sign-in look-ups: try again later' },
    // verify_org_domain makes one TXT lookup each: 10 per organization in 10 minutes is ample while a record
    // propagates, and bounds the queries anyone with org-admin rights can make the server send.
    dns_lookup: { points: 10, windowSeconds: 600, blockSeconds: 0, message: 'too many domain verification attempts for this organization: wait a few minutes for the DNS record to propagate, then try again' },
    // One organization's identity provider, whatever IPs it calls from: 1,200 SCIM requests a minute per
    // endpoint token bound the writes one provider (or one leaked token) can make, above the pace Entra ID
    // and Okta keep during an initial sync, and apart from --rate-limit-rps, which is per IP.
    scim_request: { points: 1200, windowSeconds: 60, blockSeconds: 0, message: 'too many SCIM requests: slow down' },
  };
}
