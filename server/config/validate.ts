/**
 * Startup refusals. Each answer is one line
 * that names the flag, so an operator sees at once what to fix.
 */
import type { Config } from './flags.ts';
import { checkDnsServers } from './dns-servers.ts';
import { emailConfigurationProblem } from '../modules/email/smtp-mailer.ts';
import { missingSmsFlags } from '../modules/sms/twilio-sms-provider.ts';

export const DATABASE_TYPES = ['sqlite', 'postgres', 'postgresql', 'cockroachdb', 'yugabyte', 'mysql', 'mariadb', 'mongodb'] as const;
const JWT_TYPES = ['HS256', 'HS384', 'HS512', 'RS256', 'RS384', 'RS512', 'ES256', 'ES384', 'ES512', 'EdDSA'];
const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
/** --dynamic-registration (RFC 7591; docs/openid-connect-clients.md#dynamic-client-registration). */
export const DYNAMIC_REGISTRATION_MODES = ['off', 'initial-token', 'open'];

export function checkBaseUrl(url: string | undefined): string | undefined {
  if (!url) return '--url is required: give the absolute http(s) URL this server is reached at';
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return `--url must be an absolute http(s) URL with a host (got "${url}")`;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return '--url must use http or https';
  if (!parsed.hostname) return '--url must name a host';
  if (parsed.username || parsed.password) return '--url must not carry user info';
  if (parsed.search || parsed.hash) return '--url must not carry a query or fragment';
  return undefined;
}

function checkDatabase(config: Config): string | undefined {
  if (!(DATABASE_TYPES as readonly string[]).includes(config.databaseType)) {
    return `--database-type must be one of ${DATABASE_TYPES.join(', ')} (got "${config.databaseType}")`;
  }
  const hasUrl = Boolean(config.databaseUrl);
  const hasParts = config.databaseType === 'sqlite' ? Boolean(config.databaseName) : Boolean(config.databaseHost);
  if (!hasUrl && !hasParts) {
    return '--database-url is required (or --database-host with --database-name; for sqlite --database-name as a file path)';
  }
  return undefined;
}

function checkJwt(config: Config): string | undefined {
  if (!JWT_TYPES.includes(config.jwtType)) return `--jwt-type must be one of ${JWT_TYPES.join(', ')}`;
  if (config.jwtType.startsWith('HS')) {
    if (!config.jwtSecret) return `--jwt-secret is required for --jwt-type ${config.jwtType}`;
    // RFC 7518 section 3.2: an HMAC key at least as long as the hash output (32, 48 or 64 bytes).
    const minimum = Number(config.jwtType.slice(2)) / 8;
    if (Buffer.byteLength(config.jwtSecret, 'utf8') < minimum) {
      return `--jwt-secret must be at least ${minimum} bytes for --jwt-type ${config.jwtType} (RFC 7518 section 3.2)`;
    }
    return undefined;
  }
  if (!config.jwtPrivateKey) return `--jwt-private-key is required for --jwt-type ${config.jwtType}`;
  // Since 2.4.0 an asymmetric deployment needs a key for data at rest; it never falls back to a constant.
  if (!config.encryptionKey && !config.jwtSecret) {
    return `--encryption-key is required for --jwt-type ${config.jwtType} when --jwt-secret is not set`;
  }
  return undefined;
}

/**
 * Rate limits: --rate-limit-rps 0 turns the per-IP limit off; a lockout threshold above 25 could let more
 * than 100 failed logins an hour through (OWASP ASVS 2.2.1; the window arithmetic is in
 * modules/limits/policies.ts), and 0 would turn the lockout off.
 */
function checkRateLimits(config: Config): string | undefined {
  if (!Number.isInteger(config.rateLimitRps) || config.rateLimitRps < 0) return '--rate-limit-rps must be a whole number >= 0 (0 disables the per-IP limit)';
  if (!Number.isInteger(config.rateLimitBurst) || config.rateLimitBurst < 0) return '--rate-limit-burst must be a whole number >= 0';
  const threshold = config.loginLockoutThreshold;
  if (!Number.isInteger(threshold) || threshold < 1 || threshold > 25) {
    return '--login-lockout-threshold must be between 1 and 25 (OWASP ASVS 2.2.1: at most 100 failed logins an hour)';
  }
  if (config.redisUrl !== undefined && !/^rediss?:\/\//.test(config.redisUrl)) return '--redis-url must be a redis:// or rediss:// URL';
  return undefined;
}

/**
 * A flow switched on without the channel it sends on would start and then refuse every signup (the link or
 * code never leaves) or offer a sign-in that always fails, so the start is refused instead, naming the flag.
 */
function checkChannels(config: Config): string | undefined {
  const email = emailConfigurationProblem(config);
  for (const [on, flag] of [[config.enableEmailVerification, '--enable-email-verification'], [config.enableMagicLinkLogin, '--enable-magic-link-login']] as const) {
    if (on && email) return `${flag} needs outgoing email, which is not configured: ${email.replace(/^email is not configured: /, '')}`;
  }
  const sms = missingSmsFlags(config);
  if (config.enablePhoneVerification && sms.length > 0) {
    return `--enable-phone-verification needs SMS, which is not configured: set ${sms.join(', ')}`;
  }
  return undefined;
}

export function validateConfig(config: Config): string | undefined {
  if (!config.adminSecret) return '--admin-secret is required and must not be empty';
  const urlProblem = checkBaseUrl(config.url);
  if (urlProblem) return urlProblem;
  if (!config.clientId) return '--client-id is required';
  if (!config.clientSecret) return '--client-secret is required';
  const dbProblem = checkDatabase(config);
  if (dbProblem) return dbProblem;
  const jwtProblem = checkJwt(config);
  if (jwtProblem) return jwtProblem;
  if (config.httpPort !== 0 && config.httpPort === config.metricsPort) return '--http-port and --metrics-port must differ';
  if (config.enableGrpc && config.grpcPort !== 0 && config.grpcPort === config.httpPort) return '--grpc-port and --http-port must differ';
  const limitProblem = checkRateLimits(config);
  if (limitProblem) return limitProblem;
  const dnsProblem = checkDnsServers(config.dnsServers);
  if (dnsProblem) return dnsProblem;
  if (config.shutdownTimeout <= config.shutdownDrainDelay) return '--shutdown-timeout must be greater than --shutdown-drain-delay';
  if (!LOG_LEVELS.includes(config.logLevel)) return `--log-level must be one of ${LOG_LEVELS.join(', ')}`;
  if (!DYNAMIC_REGISTRATION_MODES.includes(config.dynamicRegistration)) {
    return `--dynamic-registration must be one of ${DYNAMIC_REGISTRATION_MODES.join(', ')}`;
  }
  const strength = config.passwordMinStrength;
  if (!Number.isInteger(strength) || strength < 0 || strength > 4) return '--password-min-strength must be a whole number from 0 (off) to 4';
  const channelProblem = checkChannels(config);
  if (channelProblem) return channelProblem;
  for (const port of [config.httpPort, config.grpcPort, config.metricsPort]) {
    if (port > 65535) return `port ${port} is out of range`;
  }
  return undefined;
}
