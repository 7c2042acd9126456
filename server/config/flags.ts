/**
 * Every command-line flag of the server: name, kind, default and help text (what `--help` prints). Nothing
 * else configures the server: no environment variable, no file (README "Configuration").
 */
export type FlagKind = 'string' | 'int' | 'bool' | 'list' | 'pem';

export interface FlagDef {
  readonly name: string;
  readonly kind: FlagKind;
  readonly help: string;
  readonly default?: string | number | boolean | readonly string[];
  readonly secret?: boolean;
}

const SOCIAL_PROVIDERS = [
  'google', 'facebook', 'github', 'linkedin', 'apple', 'discord', 'twitter', 'microsoft', 'twitch', 'roblox',
] as const;
export type SocialProvider = (typeof SOCIAL_PROVIDERS)[number];
export { SOCIAL_PROVIDERS };

export const FLAGS = [
  // Storage (docs/configuration.md: --database-type, --database-url or host/port/name/user/password, TLS material).
  { name: 'database-type', kind: 'string', default: 'sqlite', help: 'database kind: sqlite, postgres (also cockroachdb, yugabyte), mysql, mariadb, mongodb' },
  { name: 'database-url', kind: 'string', help: 'database connection URL (for sqlite: a file path)', secret: true },
  { name: 'database-host', kind: 'string', help: 'database host (instead of --database-url)' },
  { name: 'database-port', kind: 'int', help: 'database port (instead of --database-url)' },
  { name: 'database-name', kind: 'string', help: 'database name (instead of --database-url; for sqlite a file path)' },
  { name: 'database-username', kind: 'string', help: 'database user (instead of --database-url)' },
  { name: 'database-password', kind: 'string', help: 'database password (instead of --database-url)', secret: true },
  { name: 'database-cert', kind: 'pem', help: 'database TLS client certificate (PEM text or file path)' },
  { name: 'database-ca-cert', kind: 'pem', help: 'database TLS CA certificate (PEM text or file path)' },
  { name: 'database-cert-key', kind: 'pem', help: 'database TLS client key (PEM text or file path)', secret: true },
  // Identity of this instance.
  { name: 'url', kind: 'string', help: 'canonical absolute http(s) base URL of this server; emailed links are built from it (required)' },
  { name: 'client-id', kind: 'string', help: 'instance client id (required)' },
  { name: 'client-secret', kind: 'string', help: 'instance client secret (required)', secret: true },
  { name: 'admin-secret', kind: 'string', help: 'super-admin secret (required, non-empty)', secret: true },
  // Tokens.
  { name: 'jwt-type', kind: 'string', default: 'HS256', help: 'signing algorithm: HS256/384/512, RS256/384/512, ES256/384/512, EdDSA' },
  { name: 'jwt-secret', kind: 'string', help: 'HMAC signing secret (HS*)', secret: true },
  { name: 'jwt-private-key', kind: 'pem', help: 'private signing key for RS*/ES*/EdDSA (PEM text or file path)', secret: true },
  { name: 'jwt-public-key', kind: 'pem', help: 'public key for RS*/ES*/EdDSA (PEM text or file path; derived when omitted)' },
  { name: 'jwt-role-claim', kind: 'string', default: 'role', help: 'name of the roles claim in the ID token' },
  { name: 'encryption-key', kind: 'string', help: 'key that encrypts TOTP seeds and OTP digests at rest (required for RS*/ES* without --jwt-secret)', secret: true },
  { name: 'custom-access-token-script', kind: 'string', help: 'JavaScript that adds claims to access tokens' },
  // Listeners.
  { name: 'http-port', kind: 'int', default: 8080, help: 'main HTTP port' },
  { name: 'host', kind: 'string', default: '0.0.0.0', help: 'bind host' },
  { name: 'grpc-port', kind: 'int', default: 9091, help: 'gRPC port' },
  { name: 'enable-grpc', kind: 'bool', default: true, help: 'serve gRPC on --grpc-port, and with it REST under /v1 and its OpenAPI document, as the released 2.x line does: false turns off both gRPC and REST /v1 (GraphQL, the OAuth/OIDC endpoints and the UIs stay)' },
  { name: 'metrics-host', kind: 'string', default: '127.0.0.1', help: 'metrics listener host' },
  { name: 'metrics-port', kind: 'int', default: 8081, help: 'metrics listener port (must differ from --http-port)' },
  { name: 'env', kind: 'string', default: 'production', help: 'environment name, written as "env" on every log line (for telling instances apart in shared logs; nothing else changes)' },
  { name: 'log-level', kind: 'string', default: 'info', help: 'log level: fatal, error, warn, info, debug, trace, silent' },
  // Shutdown (docs/reverse-proxy.md#running-a-fleet): /readyz answers 503 for the drain delay before the listeners close.
  { name: 'shutdown-drain-delay', kind: 'int', default: 5, help: 'seconds after SIGTERM/SIGINT during which /readyz answers 503 while every other route is still served, so that load balancers take this instance out before it stops accepting connections (0: close at once)' },
  { name: 'shutdown-timeout', kind: 'int', default: 25, help: 'seconds after SIGTERM/SIGINT before the process exits even if requests, gRPC calls or webhook deliveries are still running (must exceed --shutdown-drain-delay; a second signal exits at once)' },
  // HTTP policy.
  { name: 'allowed-origins', kind: 'list', default: ['*'], help: 'origins allowed to call from a browser, comma-separated; `https://*.example.com` matches subdomains. Only origins listed explicitly get credentialed CORS (cookies); `*` lets any origin read uncredentialed answers only and allows no redirect target (redirects need --redirect-uris, the --url origin or a listed origin)' },
  { name: 'trusted-proxies', kind: 'list', default: [], help: 'CIDRs of proxies whose X-Forwarded-For is honoured, comma-separated' },
  { name: 'rate-limit-rps', kind: 'int', default: 30, help: 'requests per second each client IP may make on every HTTP route and gRPC method (0 disables)' },
  { name: 'rate-limit-burst', kind: 'int', default: 60, help: 'requests a client IP may make above --rate-limit-rps, once every 10 seconds (0: none)' },
  { name: 'login-lockout-threshold', kind: 'int', default: 10, help: 'failed logins of one account within 20 minutes before it is locked for 20 minutes (1-25; at most 100 an hour)' },
  { name: 'webhook-allow-private-addresses', kind: 'bool', default: false, help: 'let webhooks and test_endpoint reach loopback, private, link-local, CGNAT and other internal addresses (SSRF guard off; for tests and closed networks)' },
  { name: 'dns-servers', kind: 'list', default: [], help: 'DNS resolvers that verify_org_domain asks for TXT records, comma-separated ip[:port] (default: the system resolver)' },
  { name: 'trusted-issuer-allow-private-addresses', kind: 'bool', default: false, help: 'let trusted issuers\' JWKS URLs name or resolve to loopback, private, link-local and other internal addresses (SSRF guard off; for tests and closed networks)' },
  { name: 'org-sso-allow-private-addresses', kind: 'bool', default: false, help: 'let organization SSO connections use http and reach loopback, private, link-local and other internal addresses (SSRF guard off; for tests and closed networks)' },
  { name: 'client-secret-rotation-grace', kind: 'int', default: 86400, help: 'seconds a registered client\'s old secret keeps working after rotate_client_secret (0: it stops at once)' },
  { name: 'dynamic-registration', kind: 'string', default: 'off', help: 'OAuth dynamic client registration at /oauth/register (RFC 7591, managed per RFC 7592): off; initial-token (a Bearer initial access token from create_initial_access_token is required); open (anyone may register a public client that uses PKCE, limited per IP)' },
  { name: 'redirect-uris', kind: 'list', default: [], help: 'redirect URIs registered for the instance client, comma-separated' },
  { name: 'default-authorize-response-type', kind: 'string', default: 'token', help: 'default response_type of /authorize' },
  { name: 'default-authorize-response-mode', kind: 'string', default: 'query', help: 'default response_mode of /authorize' },
  // Roles and branding.
  { name: 'roles', kind: 'list', default: ['user'], help: 'roles a user may hold, comma-separated' },
  { name: 'default-roles', kind: 'list', default: ['user'], help: 'roles given at signup, comma-separated' },
  { name: 'protected-roles', kind: 'list', default: [], help: 'roles signup cannot ask for, comma-separated' },
  { name: 'organization-name', kind: 'string', default: 'Portcullis', help: 'name shown in the UI' },
  { name: 'organization-logo', kind: 'string', default: '', help: 'logo URL shown in the UI' },
  // Switches (v1 disable-style settings inverted).
  { name: 'enable-login-page', kind: 'bool', default: true, help: 'serve the built-in login page' },
  { name: 'enable-playground', kind: 'bool', default: true, help: 'serve the GraphQL playground' },
  { name: 'enable-graphql-introspection', kind: 'bool', default: true, help: 'allow GraphQL schema introspection' },
  { name: 'enable-strong-password', kind: 'bool', default: true, help: 'require upper, lower, digit and special characters' },
  { name: 'password-min-strength', kind: 'int', default: 0, help: 'lowest zxcvbn strength score (0 to 4) a new password must reach, the account\'s email and name counting against it; 0: off (docs/passwords.md)' },
  { name: 'enable-basic-authentication', kind: 'bool', default: true, help: 'email and password login' },
  { name: 'enable-email-verification', kind: 'bool', default: false, help: 'verify email addresses at signup (needs --smtp-host and --smtp-sender-email; refused at start without them)' },
  { name: 'enable-magic-link-login', kind: 'bool', default: false, help: 'passwordless login by emailed link (needs --smtp-host and --smtp-sender-email; refused at start without them)' },
  { name: 'enable-signup', kind: 'bool', default: true, help: 'allow self-service signup' },
  { name: 'enable-mobile-basic-authentication', kind: 'bool', default: true, help: 'phone number and password login' },
  { name: 'enable-phone-verification', kind: 'bool', default: false, help: 'verify phone numbers by SMS (needs the --twilio-* flags: account sid, API key, API secret and sender; refused at start without them)' },
  { name: 'enforce-mfa', kind: 'bool', default: false, help: 'require a second factor for every user' },
  { name: 'disable-mfa', kind: 'bool', default: false, help: 'turn off every second factor' },
  { name: 'disable-totp-login', kind: 'bool', default: false, help: 'turn off TOTP' },
  { name: 'disable-email-otp', kind: 'bool', default: false, help: 'turn off email OTP' },
  { name: 'disable-sms-otp', kind: 'bool', default: false, help: 'turn off SMS OTP' },
  { name: 'disable-webauthn-mfa', kind: 'bool', default: false, help: 'turn off WebAuthn as a second factor' },
  { name: 'app-cookie-secure', kind: 'bool', default: true, help: 'Secure attribute of session cookies' },
  { name: 'admin-cookie-secure', kind: 'bool', default: true, help: 'Secure attribute of the admin cookie' },
  { name: 'disable-admin-header-auth', kind: 'bool', default: false, help: 'refuse the x-service-admin-secret header; only the admin cookie authenticates' },
  // Mail and SMS.
  { name: 'smtp-host', kind: 'string', help: 'SMTP host' },
  { name: 'smtp-port', kind: 'int', default: 587, help: 'SMTP port' },
  { name: 'smtp-username', kind: 'string', help: 'SMTP user' },
  { name: 'smtp-password', kind: 'string', help: 'SMTP password', secret: true },
  { name: 'smtp-sender-email', kind: 'string', help: 'sender address' },
  { name: 'smtp-sender-name', kind: 'string', default: 'Portcullis', help: 'sender name' },
  { name: 'smtp-local-name', kind: 'string', help: 'name this server gives in SMTP HELO' },
  { name: 'smtp-skip-tls-verification', kind: 'bool', default: false, help: 'accept any SMTP server certificate' },
  { name: 'twilio-account-sid', kind: 'string', help: 'SMS provider account sid' },
  { name: 'twilio-api-key', kind: 'string', help: 'SMS provider API key' },
  { name: 'twilio-api-secret', kind: 'string', help: 'SMS provider API secret', secret: true },
  { name: 'twilio-sender', kind: 'string', help: 'SMS sender number' },
  { name: 'twilio-api-url', kind: 'string', default: 'https://api.twilio.com', help: 'base URL of the Twilio-style SMS API' },
  { name: 'reset-password-url', kind: 'string', help: 'password reset link target' },
  // Shared state and FGA.
  { name: 'redis-url', kind: 'string', help: 'Redis URL for shared rate-limit counters and caches', secret: true },
  { name: 'fga-store', kind: 'string', help: 'FGA storage: memory, sqlite, postgres, mysql (default: the main SQL database)' },
  { name: 'fga-store-url', kind: 'string', help: 'FGA storage URL', secret: true },
  { name: 'fga-allow-unconstrained-agents', kind: 'bool', default: false, help: 'let delegated agent checks pass when the model has no type agent' },
  // Retention (docs/configuration.md#retention): 0 keeps rows forever.
  { name: 'audit-retention-days', kind: 'int', default: 0, help: 'days audit entries are kept before a background sweep deletes them (0: forever)' },
  { name: 'webhook-log-retention-days', kind: 'int', default: 0, help: 'days webhook delivery logs are kept before a background sweep deletes them (0: forever); logs of a delivery still pending or retrying stay' },
  { name: 'webhook-event-retention-days', kind: 'int', default: 0, help: 'days an event handed to webhook delivery is kept once all its deliveries succeeded (0: forever); events with a pending, retrying or failed delivery stay' },
] as const satisfies readonly FlagDef[];

/** Social sign-in providers whose identity comes from an OpenID Connect ID token (modules/social/providers.ts). */
const OIDC_SOCIAL_PROVIDERS: readonly SocialProvider[] = ['google', 'microsoft', 'apple'];

/**
 * Social sign-in providers: --<provider>-client-id, -client-secret, -scopes (Microsoft also -tenant-id), and
 * -base-url, which points a provider at another upstream (a loopback server in tests, a self-hosted one).
 */
const SOCIAL_FLAGS: readonly FlagDef[] = [
  ...SOCIAL_PROVIDERS.flatMap((p): FlagDef[] => [
    { name: `${p}-client-id`, kind: 'string', help: `${p} OAuth client id` },
    { name: `${p}-client-secret`, kind: 'string', help: `${p} OAuth client secret`, secret: true },
    { name: `${p}-scopes`, kind: 'list', default: [], help: `${p} OAuth scopes, comma-separated` },
    {
      name: `${p}-base-url`,
      kind: 'string',
      help: OIDC_SOCIAL_PROVIDERS.includes(p)
        ? `for testing or a self-hosted upstream: absolute http(s) issuer URL whose /.well-known/openid-configuration replaces ${p}'s`
        : `for testing or a self-hosted upstream: absolute http(s) URL that replaces the origin of every ${p} endpoint (paths kept)`,
    },
  ]),
  { name: 'microsoft-tenant-id', kind: 'string', default: 'common', help: 'microsoft tenant id' },
];

export const ALL_FLAGS: readonly FlagDef[] = [...FLAGS, ...SOCIAL_FLAGS];

type CamelCase<S extends string> = S extends `${infer Head}-${infer Tail}` ? `${Head}${Capitalize<CamelCase<Tail>>}` : S;
type ValueOf<K extends FlagKind> = K extends 'int' ? number : K extends 'bool' ? boolean : K extends 'list' ? string[] : string;
type StaticFlags = (typeof FLAGS)[number];

/** The parsed configuration: one camelCase key per flag; flags without default may be undefined. */
export type Config = {
  [F in StaticFlags as CamelCase<F['name']>]: F extends { default: unknown } ? ValueOf<F['kind']> : ValueOf<F['kind']> | undefined;
} & {
  /** Social providers, keyed by provider name, present only when a client id was given. */
  social: Partial<Record<SocialProvider, { clientId: string; clientSecret: string; scopes: string[]; tenantId?: string; baseUrl?: string }>>;
};

export function camelCase(name: string): string {
  return name.replace(/-([a-z])/g, (_m, c: string) => c.toUpperCase());
}
