/**
 * Wire shapes of the client registry (docs/api-overview.md#resources-and-fields, "Client": `id`, `client_id`, `name`, `description`,
 * `allowed_scopes`, `is_active`, `created_at`, `updated_at`; create and rotate answer `{client,
 * client_secret}`), plus `redirect_uris` and `consent_required` that /authorize needs and
 * `post_logout_redirect_uris` that /logout needs, and the checks of their values. New fields go last in each
 * object: protobuf field numbers follow property order (transports/grpc/generate-proto.ts).
 */
import { s, type Static } from '../../ops/schema.ts';
import { Pagination, PaginationRequest } from '../../ops/pagination.ts';
import { AppError } from '../../kernel/errors.ts';
import { unixSeconds } from '../users/index.ts';
import { postLogoutRedirectUrisOf, type ClientRow } from './client.entity.ts';
import { isLoopbackHost } from '../../kernel/loopback-host.ts';
import { MAX_RESOURCES } from './allowed-resources.ts';
import { MAX_EXCHANGE_AUDIENCES, type ClientSettings } from './client-settings.ts';

const MAX_SCOPES = 100;
const MAX_REDIRECT_URIS = 50;

const name = s.string({ minLength: 1, maxLength: 255 });
const description = s.string({ maxLength: 1024 });
const allowedScopes = s.list(s.string({ minLength: 1, maxLength: 128 }), { maxItems: MAX_SCOPES });
const redirectUris = s.list(s.string({ minLength: 1, maxLength: 2048 }), { maxItems: MAX_REDIRECT_URIS });
const allowedResources = s.list(s.string({ minLength: 1, maxLength: 2048 }), { maxItems: MAX_RESOURCES });
const postLogoutRedirectUris = s.list(s.string({ minLength: 1, maxLength: 2048 }), { maxItems: MAX_REDIRECT_URIS });
const exchangeAudiences = s.list(s.string({ minLength: 1, maxLength: 2048 }), { maxItems: MAX_EXCHANGE_AUDIENCES });

/**
 * The per-client OAuth settings (client-settings.ts) create_client and update_client take, also set one at a
 * time by `_set_client_device_grant`, `_set_client_token_exchange` and `_set_client_backchannel_logout`.
 */
const settingsFields = {
  // RFC 8628: the device authorization grant; off by default.
  device_grant_enabled: s.optional(s.boolean()),
  // RFC 8693: the token exchange grant, with the audiences the client may ask for; off by default.
  token_exchange_enabled: s.optional(s.boolean()),
  token_exchange_audiences: s.optional(exchangeAudiences),
  // OpenID Connect Back-Channel Logout 1.0 section 2.2; an empty URI removes the administrator's registration.
  backchannel_logout_uri: s.optional(s.string({ maxLength: 2048, description: 'https URL the logout token is POSTed to; empty removes it' })),
  backchannel_logout_session_required: s.optional(s.boolean()),
};

export const ClientSchema = s.object('Client', {
  id: s.string(),
  client_id: s.string(),
  name: s.string(),
  description: s.string(),
  allowed_scopes: s.list(s.string()),
  redirect_uris: s.list(s.string()),
  consent_required: s.boolean(),
  is_active: s.boolean(),
  created_at: s.int64(),
  updated_at: s.int64(),
  post_logout_redirect_uris: s.list(s.string()),
  require_pushed_authorization_requests: s.boolean(),
  // Registered at /oauth/register (RFC 7591) rather than by an admin; the console marks it.
  dynamically_registered: s.boolean(),
  allowed_resources: s.list(s.string()),
  device_grant_enabled: s.boolean({ description: 'whether the client may use the device authorization grant (RFC 8628)' }),
  token_exchange_enabled: s.boolean({ description: 'whether the client may use the token exchange grant (RFC 8693)' }),
  token_exchange_audiences: s.list(s.string()),
  backchannel_logout_uri: s.string({ description: 'where logout tokens are sent (OpenID Connect Back-Channel Logout 1.0); empty when none' }),
  backchannel_logout_session_required: s.boolean(),
});

export const ClientWithSecret = s.object('ClientWithSecret', {
  client: ClientSchema,
  client_secret: s.string({ description: 'shown only in this answer; store it now' }),
  // docs/api-overview.md#states-and-transitions, "rotate_client_secret": the replaced secret keeps validating for the grace window; the
  // answer says until when (Unix seconds), so an admin knows how long relying parties have to switch. Absent on
  // create and when the grace is 0 (the old secret stopped at once).
  previous_secret_expires_at: s.optional(s.int64({ description: 'when the secret this rotation replaced stops working' })),
});

export const Clients = s.object('Clients', {
  clients: s.list(ClientSchema),
  pagination: Pagination,
});

export const CreateClientRequest = s.object('CreateClientRequest', {
  name,
  description: s.optional(description),
  allowed_scopes: s.optional(allowedScopes),
  redirect_uris: s.optional(redirectUris),
  consent_required: s.optional(s.boolean()),
  is_active: s.optional(s.boolean()),
  post_logout_redirect_uris: s.optional(postLogoutRedirectUris),
  // RFC 9126 section 6: authorization requests only through POST /oauth/par.
  require_pushed_authorization_requests: s.optional(s.boolean()),
  // RFC 8707: resource servers (absolute URIs) this client may ask access tokens for.
  allowed_resources: s.optional(allowedResources),
  ...settingsFields,
});

/** Omitted fields stay as they are. */
export const UpdateClientRequest = s.object('UpdateClientRequest', {
  id: s.string({ minLength: 1, maxLength: 64 }),
  name: s.optional(name),
  description: s.optional(description),
  allowed_scopes: s.optional(allowedScopes),
  redirect_uris: s.optional(redirectUris),
  consent_required: s.optional(s.boolean()),
  is_active: s.optional(s.boolean()),
  post_logout_redirect_uris: s.optional(postLogoutRedirectUris),
  // RFC 9126 section 6: authorization requests only through POST /oauth/par.
  require_pushed_authorization_requests: s.optional(s.boolean()),
  // RFC 8707: resource servers (absolute URIs) this client may ask access tokens for.
  allowed_resources: s.optional(allowedResources),
  ...settingsFields,
});

export const ClientIdRequest = s.object('ClientIdRequest', {
  id: s.string({ minLength: 1, maxLength: 64 }),
});

/** Exactly one of the two. */
export const GetClientRequest = s.object('GetClientRequest', {
  id: s.optional(s.string({ maxLength: 64 })),
  client_id: s.optional(s.string({ maxLength: 64 })),
});

export const ClientsRequest = s.object('ClientsRequest', {
  pagination: s.optional(PaginationRequest),
});

export type PublicClient = Static<typeof ClientSchema>;

/** The client's answer; `settings` from client-settings.ts settingsOf (the defaults, all off, without). */
export function toPublicClient(row: ClientRow, settings?: ClientSettings): PublicClient {
  return {
    id: row.id,
    client_id: row.clientId,
    name: row.name,
    description: row.description,
    allowed_scopes: row.allowedScopes,
    redirect_uris: row.redirectUris,
    consent_required: row.consentRequired,
    is_active: row.isActive,
    created_at: unixSeconds(row.createdAt)!,
    updated_at: unixSeconds(row.updatedAt)!,
    post_logout_redirect_uris: postLogoutRedirectUrisOf(row),
    require_pushed_authorization_requests: row.requirePushedAuthorizationRequests === true,
    allowed_resources: row.allowedResources ?? [],
    dynamically_registered: row.registration !== null && row.registration !== undefined,
    device_grant_enabled: settings?.deviceGrant ?? false,
    token_exchange_enabled: settings?.tokenExchange !== undefined,
    token_exchange_audiences: settings?.tokenExchange ?? [],
    backchannel_logout_uri: settings?.backchannel?.uri ?? '',
    backchannel_logout_session_required: settings?.backchannel?.sessionRequired ?? false,
  };
}

/** A display name with something visible in it (a blank name cannot be told apart in the console). */
export function checkedName(value: string): string {
  const trimmed = value.trim();
  if (trimmed.length === 0) throw AppError.invalid('name must not be empty');
  return trimmed;
}

/** RFC 6749 section 3.3: scope-token = 1*( %x21 / %x23-5B / %x5D-7E ), no space, quote or backslash. */
const SCOPE_TOKEN = /^[\x21\x23-\x5b\x5d-\x7e]+$/;

export function checkedScopes(scopes: readonly string[]): string[] {
  for (const scope of scopes) {
    if (!SCOPE_TOKEN.test(scope)) throw AppError.invalid(`allowed_scopes: not an RFC 6749 scope token: ${JSON.stringify(scope)}`);
  }
  return [...new Set(scopes)];
}

/**
 * One registered redirect target of the field `field`, parsed: an absolute http(s) URL without a fragment
 * (RFC 6749 section 3.1.2) and without user credentials (a `user@host` form disguises the real host to a
 * reader, RFC 3986 section 7.6).
 */
function checkedTarget(field: string, uri: string): URL {
  // The WHATWG parser repairs `https:host/cb`, `https:///host` and `https:\\host` into a URL; a registered value must
  // already be written the way a browser will read it, so the string the admin sees names the real host.
  if (!/^https?:\/\/[^/\\]/i.test(uri) || uri.includes('\\')) {
    throw AppError.invalid(`${field}: not an absolute http(s) URL of the form scheme://host/...: ${JSON.stringify(uri)}`);
  }
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    throw AppError.invalid(`${field}: not an absolute URL: ${JSON.stringify(uri)}`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw AppError.invalid(`${field}: only http and https URLs are allowed: ${JSON.stringify(uri)}`);
  if (uri.includes('#')) throw AppError.invalid(`${field}: a redirect URI must not have a fragment: ${JSON.stringify(uri)}`);
  if (url.username || url.password || /^[a-z]+:\/\/[^/?]*@/i.test(uri)) throw AppError.invalid(`${field}: a redirect URI must not carry credentials: ${JSON.stringify(uri)}`);
  if (/\s/.test(uri)) throw AppError.invalid(`${field}: whitespace is not allowed: ${JSON.stringify(uri)}`);
  return url;
}

/**
 * Redirect URIs (see checkedTarget), kept exactly as given because /authorize compares by exact string (OAuth
 * 2.0 Security BCP, RFC 9700 section 4.1.3: no pattern or prefix matching).
 */
export function checkedRedirectUris(uris: readonly string[]): string[] {
  for (const uri of uris) checkedTarget('redirect_uris', uri);
  return [...new Set(uris)];
}

/**
 * Post-logout redirect URIs (OpenID Connect RP-Initiated Logout 1.0 section 3.2): the rules of redirect URIs,
 * kept exactly as given for /logout's exact comparison (RFC 9700 section 2.1), and https unless the host is
 * this machine (RFC 8252 section 8.3), so the logout answer and its `state` do not cross a network in clear.
 */
export function checkedPostLogoutRedirectUris(uris: readonly string[]): string[] {
  for (const uri of uris) {
    const url = checkedTarget('post_logout_redirect_uris', uri);
    if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
      throw AppError.invalid(`post_logout_redirect_uris: must be https (plain http is allowed only for localhost, 127.0.0.1 or [::1]): ${JSON.stringify(uri)}`);
    }
  }
  return [...new Set(uris)];
}
