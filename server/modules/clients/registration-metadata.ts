/**
 * The client metadata of a dynamic registration (RFC 7591 section 2), checked: what the registry keeps, or a
 * refusal in the shape of RFC 7591 section 3.2.2 (invalid_redirect_uri, invalid_client_metadata). The same
 * checks serve a registration (POST /oauth/register) and its update (RFC 7592 section 2.2, PUT).
 *
 * Policy (docs/openid-connect-clients.md#dynamic-client-registration):
 * - only the authorization code grant (with refresh tokens) and response_type code, so every code is
 *   redeemed with PKCE (authorize requires S256);
 * - in `open` mode only public clients (token_endpoint_auth_method none): nobody vouched for the registrant,
 *   so it gets no secret to confuse with a confidential client's;
 * - redirect URIs are https, or http on a loopback IP literal with any port (RFC 8252 section 7.3); never a
 *   fragment (RFC 6749 section 3.1.2), a wildcard, a custom or javascript: scheme.
 * - jwks_uri follows the outbound address policy (kernel/outbound-address.ts) as a trusted issuer's does.
 */
import { backchannelUriProblem } from './backchannel-logout-uri.ts';
import { AppError } from '../../kernel/errors.ts';
import { OAuthError } from '../../kernel/oauth-error.ts';
import type { ClientRegistration } from './client.entity.ts';
import { checkedRedirectUris, checkedScopes } from './clients.schema.ts';
import { checkedJwksUrl } from './trusted-issuers.schema.ts';

export type RegistrationMode = 'initial-token' | 'open';

/** What the registry stores of checked metadata. */
export interface CheckedMetadata {
  name: string;
  redirectUris: string[];
  scopes: string[];
  registration: ClientRegistration;
}

const AUTH_METHODS = ['none', 'client_secret_basic', 'client_secret_post'] as const;
const GRANT_TYPES = ['authorization_code', 'refresh_token'];
const MAX_TEXT = 255;
const MAX_URI = 2048;

function metadataError(description: string): OAuthError {
  return new OAuthError(400, 'invalid_client_metadata', description);
}

function redirectError(description: string): OAuthError {
  return new OAuthError(400, 'invalid_redirect_uri', description);
}

function optionalText(doc: Record<string, unknown>, field: string, max = MAX_TEXT): string | undefined {
  const value = doc[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string' || value.length === 0 || value.length > max || /[\x00-\x1f\x7f]/.test(value)) {
    throw metadataError(`${field} must be a string of 1 to ${max} printable characters`);
  }
  return value;
}

function optionalList(doc: Record<string, unknown>, field: string, maxItems: number): string[] | undefined {
  const value = doc[field];
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value) || value.length > maxItems || value.some((item) => typeof item !== 'string' || item.length === 0 || item.length > MAX_URI)) {
    throw metadataError(`${field} must be an array of at most ${maxItems} non-empty strings`);
  }
  return value as string[];
}

/** client_uri and logo_uri (RFC 7591 section 2): https URLs a consent screen may link or show. */
function optionalWebUrl(doc: Record<string, unknown>, field: string): string | undefined {
  const value = optionalText(doc, field, MAX_URI);
  if (value === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw metadataError(`${field} must be an absolute https URL`);
  }
  if (url.protocol !== 'https:' || url.username || url.password || url.hash) throw metadataError(`${field} must be an absolute https URL without credentials or fragment`);
  return value;
}

/** A redirect URI this policy accepts (see the file comment), as the registry's own check then keeps it. */
function checkedRegistrationRedirect(uri: string): void {
  if (uri.includes('*')) throw redirectError(`a redirect URI must not contain a wildcard: ${JSON.stringify(uri.slice(0, 200))}`);
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    throw redirectError(`not an absolute URL: ${JSON.stringify(uri.slice(0, 200))}`);
  }
  if (url.protocol === 'http:') {
    // RFC 8252 section 7.3 (loopback interface redirection) and 8.3: the IP literal, not localhost, which a
    // resolver or hosts file may send elsewhere.
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (host !== '127.0.0.1' && host !== '::1') {
      throw redirectError(`http redirect URIs are allowed only on the loopback IP literals 127.0.0.1 and [::1]: ${JSON.stringify(uri.slice(0, 200))}`);
    }
  } else if (url.protocol !== 'https:') {
    throw redirectError(`a redirect URI must be https (or http on a loopback IP): ${JSON.stringify(uri.slice(0, 200))}`);
  }
  try {
    checkedRedirectUris([uri]);
  } catch (err) {
    if (err instanceof AppError) throw redirectError(err.message);
    throw err;
  }
}

function checkedAuthMethod(doc: Record<string, unknown>, mode: RegistrationMode): ClientRegistration['token_endpoint_auth_method'] {
  const given = doc.token_endpoint_auth_method ?? (mode === 'open' ? 'none' : 'client_secret_basic');
  if (typeof given !== 'string' || !(AUTH_METHODS as readonly string[]).includes(given)) {
    throw metadataError(`token_endpoint_auth_method must be one of ${AUTH_METHODS.join(', ')}`);
  }
  if (mode === 'open' && given !== 'none') {
    throw metadataError('open registration accepts only public clients: token_endpoint_auth_method must be none (the client uses PKCE)');
  }
  return given as ClientRegistration['token_endpoint_auth_method'];
}

/** RFC 7591 section 2: a JWK Set by value or by reference, not both. */
function checkedKeys(doc: Record<string, unknown>, allowPrivateJwks: boolean): Pick<ClientRegistration, 'jwks' | 'jwks_uri'> {
  if (doc.jwks !== undefined && doc.jwks_uri !== undefined) throw metadataError('jwks and jwks_uri must not both be given');
  if (doc.jwks !== undefined) {
    const jwks = doc.jwks as { keys?: unknown };
    if (!jwks || typeof jwks !== 'object' || !Array.isArray(jwks.keys) || jwks.keys.length > 20 || JSON.stringify(jwks).length > 20_000) {
      throw metadataError('jwks must be a JWK Set: {"keys": [...]} of at most 20 keys');
    }
    return { jwks: { keys: jwks.keys } };
  }
  const uri = optionalText(doc, 'jwks_uri', MAX_URI);
  if (uri === undefined) return {};
  try {
    return { jwks_uri: checkedJwksUrl(uri, allowPrivateJwks) };
  } catch (err) {
    if (err instanceof AppError) throw metadataError(err.message);
    throw err;
  }
}

/** The metadata of `doc`, checked for `mode`; throws RFC 7591 section 3.2.2 errors. */
/** dpop_bound_access_tokens (RFC 9449 section 5.2): a boolean, kept only when true. */
function checkedDpopBinding(doc: Record<string, unknown>): Pick<ClientRegistration, 'dpop_bound_access_tokens'> {
  const value = doc.dpop_bound_access_tokens;
  if (value !== undefined && typeof value !== 'boolean') throw metadataError('dpop_bound_access_tokens must be a boolean');
  return value === true ? { dpop_bound_access_tokens: true } : {};
}

/** backchannel_logout_uri and backchannel_logout_session_required (OpenID Connect Back-Channel Logout 1.0 section 2.2). */
function checkedBackchannelLogout(doc: Record<string, unknown>, allowPrivate: boolean): Pick<ClientRegistration, 'backchannel_logout_uri' | 'backchannel_logout_session_required'> {
  const uri = optionalText(doc, 'backchannel_logout_uri', MAX_URI);
  const required = doc.backchannel_logout_session_required;
  if (required !== undefined && typeof required !== 'boolean') throw metadataError('backchannel_logout_session_required must be a boolean');
  if (uri === undefined) {
    if (required !== undefined) throw metadataError('backchannel_logout_session_required needs a backchannel_logout_uri');
    return {};
  }
  const problem = backchannelUriProblem(uri, allowPrivate);
  if (problem) throw metadataError(problem);
  return { backchannel_logout_uri: uri, backchannel_logout_session_required: required ?? false };
}

export function checkedRegistrationMetadata(doc: unknown, mode: RegistrationMode, allowPrivateJwks: boolean, allowPrivateLogoutUri = false): CheckedMetadata {
  if (!doc || typeof doc !== 'object' || Array.isArray(doc)) throw metadataError('the request body must be a JSON object of client metadata');
  const body = doc as Record<string, unknown>;
  const redirectUris = optionalList(body, 'redirect_uris', 50);
  if (!redirectUris || redirectUris.length === 0) throw redirectError('redirect_uris is required: this server registers clients of the authorization code flow');
  for (const uri of redirectUris) checkedRegistrationRedirect(uri);
  const tokenEndpointAuthMethod = checkedAuthMethod(body, mode);
  const grantTypes = optionalList(body, 'grant_types', 5) ?? ['authorization_code'];
  const unsupportedGrant = grantTypes.find((grant) => !GRANT_TYPES.includes(grant));
  if (unsupportedGrant !== undefined) throw metadataError(`grant_types: ${JSON.stringify(unsupportedGrant)} is not available to registered clients (${GRANT_TYPES.join(', ')})`);
  if (!grantTypes.includes('authorization_code')) throw metadataError('grant_types must include authorization_code');
  const responseTypes = optionalList(body, 'response_types', 5) ?? ['code'];
  if (responseTypes.some((type) => type !== 'code')) throw metadataError('response_types: only code is available to registered clients');
  const scope = optionalText(body, 'scope', 4096);
  let scopes: string[];
  try {
    scopes = checkedScopes(scope ? scope.split(' ').filter(Boolean) : ['openid', 'email', 'profile']);
  } catch (err) {
    if (err instanceof AppError) throw metadataError(err.message);
    throw err;
  }
  // offline_access asks for a refresh token (OpenID Connect Core section 11), which the client's own
  // grant_types must name (RFC 7591 section 2.1: the grant types it restricts itself to).
  if (scopes.includes('offline_access') && !grantTypes.includes('refresh_token')) {
    throw metadataError('scope offline_access needs refresh_token in grant_types');
  }
  const contacts = optionalList(body, 'contacts', 10);
  const registration: ClientRegistration = {
    token_endpoint_auth_method: tokenEndpointAuthMethod,
    grant_types: [...new Set(grantTypes)],
    response_types: ['code'],
    ...definedFields({
      client_uri: optionalWebUrl(body, 'client_uri'),
      logo_uri: optionalWebUrl(body, 'logo_uri'),
      contacts,
      software_id: optionalText(body, 'software_id'),
      software_version: optionalText(body, 'software_version'),
    }),
    ...checkedKeys(body, allowPrivateJwks),
    ...checkedBackchannelLogout(body, allowPrivateLogoutUri),
    ...checkedDpopBinding(body),
  };
  const name = optionalText(body, 'client_name')?.trim() || 'Dynamically registered client';
  return { name, redirectUris: [...new Set(redirectUris)], scopes, registration };
}

function definedFields<T extends Record<string, unknown>>(fields: T): Partial<T> {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as Partial<T>;
}
