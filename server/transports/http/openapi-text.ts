/**
 * The prose of the OpenAPI document (openapi-document.ts): how to call /v1, the Origin rule, the error
 * table, what each credential is and what each module's operations do. Tables are typed by the server's own
 * unions (error kinds, auth kinds), so a new kind does not compile until it is described here.
 */
import type { AuthKind } from '../../ops/auth.ts';
import { HTTP_ERROR_MAP, type ErrorKind } from '../../kernel/errors.ts';
import { DEFAULT_MAX_ITEMS, DEFAULT_MAX_STRING } from '../../ops/input-limits.ts';

/** When each error kind is answered. */
export const ERROR_MEANINGS: Record<ErrorKind, string> = {
  invalid_argument: 'the body is not a JSON object or a field is invalid; the message names the field',
  unauthenticated: 'the credentials are missing, wrong or expired',
  permission_denied: 'the caller may not do this, or the Origin rule refused the request',
  not_found: 'the record does not exist, or no route has this path',
  already_exists: 'a value that must be unique is taken',
  failed_precondition: 'the server state does not allow it (a feature switched off, a step not done first)',
  method_not_allowed: 'the path takes another HTTP method (named in `Allow`)',
  too_many_requests: 'a rate or attempt limit: try again after `Retry-After` seconds',
  unimplemented: 'the operation is not served over REST (use GraphQL)',
  unavailable: 'an upstream (SMTP server, SMS provider) did not answer; the call may be retried',
  internal: 'an unexpected failure; the message names the request id the operator finds in the log',
};

/** What `Authorization`-like credentials each auth kind takes, said once per operation. */
export const AUTH_TEXT: Record<AuthKind, string> = {
  public: 'none.',
  user: 'a signed-in user: a bearer access token issued to this server\'s own client, or the session cookie.',
  admin: 'the super-admin: the `x-service-admin-secret` header, or the `service-admin` cookie set by `POST /v1/admin/login`.',
  user_or_admin: 'a signed-in user (bearer access token or session cookie), or the super-admin (header or cookie).',
  mfa_cookie: 'the `mfa` cookie of a sign-in waiting for its second factor.',
  user_or_mfa_cookie: 'a signed-in user (bearer access token or session cookie), or the `mfa` cookie while a first-time offer of a second factor is pending.',
  pdp_client: 'a registered client\'s own bearer access token from client_credentials for the AuthZEN resource `<issuer>/access/v1` (docs/authzen.md).',
};

/** Tag descriptions, by module (server/modules/<name>); a module missing here gets a tag without one. */
export const TAG_DESCRIPTIONS: Readonly<Record<string, string>> = {
  meta: 'The server\'s public feature flags.',
  accounts: 'End users\' own accounts: sign-up, sign-in, sessions and tokens, profile, verification, password reset and second factors.',
  admin: 'The super-admin session.',
  users: 'Administration of user accounts.',
  'accounts-admin': 'Administration of account access: delete, revoke and restore, invitations.',
  sessions: 'Administration of users\' login sessions.',
  verification: 'Pending email verification requests.',
  fga: 'Fine-grained authorization (OpenFGA-compatible): permission checks, the model and relationship tuples.',
  clients: 'OAuth 2.0 / OpenID Connect clients and the trusted issuers of their assertions.',
  oauth: 'The signed-in user\'s authorization requests and remembered consents.',
  webauthn: 'Passkeys (WebAuthn): registration and sign-in ceremonies, the user\'s own credentials.',
  'email-templates': 'Email templates that override the built-in ones.',
  audit: 'The audit log of administrative actions and security events.',
  webhooks: 'Webhooks: signed event deliveries and their logs.',
  organizations: 'Organizations and their members.',
  'org-domains': 'Organizations\' verified email domains.',
  scim: 'Organizations\' SCIM 2.0 provisioning endpoints.',
  'org-sso': 'Organizations\' single sign-on through their OpenID Connect or SAML identity provider, and home-realm discovery.',
  'saml-idp': 'Organizations as SAML 2.0 identity providers: signing keys and service providers.',
};

export const SECURITY_SCHEME_TEXT = {
  bearer: 'An access token returned by a sign-in (`login`, `signup`, `session`, `verify_otp`, ...), issued to this server\'s own client (`--client-id`). Tokens of registered OAuth clients are refused here.',
  session: 'The HttpOnly session cookie set by a sign-in (`cookie_session`, or its domain-wide twin `cookie_session_domain`). From a browser on another origin it needs credentialed CORS (`--allowed-origins` listing that origin).',
  adminSecret: 'The admin secret (`--admin-secret`). Switched off by `--disable-admin-header-auth`. Wrong secrets are rate limited and audited.',
  adminCookie: 'The super-admin session cookie set by `POST /v1/admin/login` (HttpOnly, SameSite=Strict, 12 hours at most).',
  mfa: 'The short-lived HttpOnly cookie of a sign-in that waits for its second factor (set by a first factor when the account has or is offered one).',
} as const;

function errorTable(): string {
  const rows = (Object.entries(HTTP_ERROR_MAP) as [ErrorKind, { status: number; code: string }][])
    .sort(([, a], [, b]) => a.status - b.status)
    .map(([kind, { status, code }]) => `| ${status} | \`${code}\` | ${ERROR_MEANINGS[kind]} |`);
  return ['| Status | `code` | When |', '| --- | --- | --- |', ...rows].join('\n');
}

/** The document's `info.description` (CommonMark). `gets` lists the operations served by GET. */
export function documentDescription(gets: readonly string[]): string {
  return [
    'The REST API of Portcullis, generated from the server\'s operation registry. Every operation here is also served',
    'over GraphQL (`POST /graphql`, schema in `graphql/portcullis.graphql`) and gRPC (`proto/portcullis/v1/portcullis.proto`)',
    'with the same input, answer and errors; each operation names its GraphQL field and gRPC method.',
    '',
    '## Calling the API',
    '',
    '- Paths are relative to the server\'s `--url`. Public operations are under `/v1`, the super-admin\'s under `/v1/admin`.',
    `- GET for the reads that take no input (${gets.map((path) => `\`${path}\``).join(', ')}); every other operation is a`,
    '  POST of one JSON object (`Content-Type: application/json`). Another method answers 405 with an `Allow` header.',
    '- A 200 answer is the operation\'s result object. Unknown input fields are ignored, and `null` counts as absent.',
    `- Input limits: a string without a \`maxLength\` of its own holds at most ${DEFAULT_MAX_STRING} characters (longer bounds for`,
    '  email addresses, URLs and tokens), text is one line unless a field says otherwise, control characters are',
    `  refused everywhere, and a list without a \`maxItems\` of its own holds at most ${DEFAULT_MAX_ITEMS} items.`,
    '- Requests are rate limited per client address (`--rate-limit-rps`): 429 with `Retry-After`.',
    '',
    '## The Origin rule (CSRF)',
    '',
    'A POST must carry an `Origin` header (or, failing that, a `Referer`) that names the server\'s own `--url` origin,',
    'an origin listed in `--allowed-origins`, or, under the default `--allowed-origins *`, an origin whose host and',
    'port are the request\'s `Host`. Otherwise it is refused with 403 `permission_denied` before any operation runs.',
    'Browsers send `Origin` themselves; a back end or a script sends the server\'s URL:',
    '',
    '```sh',
    'curl -X POST http://localhost:8080/v1/login -H \'Content-Type: application/json\' \\',
    '  -H \'Origin: http://localhost:8080\' -d \'{"email":"ada@example.com","password":"..."}\'',
    '```',
    '',
    'GET requests need no `Origin`. Cross-origin browser pages read answers as `--allowed-origins` allows (CORS).',
    '',
    '## Errors',
    '',
    'A refused call answers `{"code": "...", "message": "..."}` (schema `Error`) with these statuses:',
    '',
    errorTable(),
    '',
    'A body over 1 MiB answers 413 and a body that is neither JSON nor a form answers 415, in the same shape.',
    '',
    '## Credentials',
    '',
    'Each operation lists the credentials it takes (any one of them): a bearer access token or the session cookie',
    'for a user, the `x-service-admin-secret` header or the `service-admin` cookie for the super-admin, and the `mfa`',
    'cookie during a sign-in\'s second step. Operations that sign in set the cookies with `Set-Cookie`.',
  ].join('\n');
}

/** "Does X" with its final period, for a description that goes on after it. */
export function sentence(text: string): string {
  return /[.!?]$/.test(text) ? text : `${text}.`;
}
