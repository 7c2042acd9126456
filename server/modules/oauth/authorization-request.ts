/**
 * Validation of an authorization request (RFC 6749 sections 4.1.1 and 4.2.1; RFC 7636 section 4.3; OpenID
 * Connect Core sections 3.1.2.1 and 3.2.2.1; docs/api-overview.md#parameters-of-the-oauth-and-sign-in-endpoints).
 *
 * Two kinds of refusal (RFC 6749 section 4.1.2.1): while the client or its redirect_uri is not established,
 * nothing may be sent to the redirect_uri (it could be anyone's), so the browser gets an error page
 * ('fatal'); once both are, every other problem goes back to the client in its response mode ('error').
 */
import type { Config } from '../../config/flags.ts';
import { redirectUriAllowed, type AuthorizeClient } from './authorize-client.ts';
import { chosenResource } from './resource-indicator.ts';
import { dpopJktParameter } from './dpop/authorization-binding.ts';
import { RESPONSE_MODES, defaultResponseMode, type ResponseMode, type ResponseTarget } from './authorization-response.ts';

export type ResponseType = 'code' | 'token';

/** scopes_supported of discovery; a registered client may add the scopes it was registered with. */
export const SUPPORTED_SCOPES: readonly string[] = ['openid', 'email', 'profile', 'offline_access'];
const DEFAULT_SCOPE = ['openid', 'email', 'profile'];
const PROMPTS = new Set(['none', 'login', 'consent', 'select_account']);
/** RFC 7636 section 4.2: BASE64URL(SHA256(verifier)) is always 43 characters. */
const S256_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;
const MAX_PARAM_LENGTH = 2048;

/** The parameters this server reads; anything else in the query is ignored (RFC 6749 section 3.1). */
export const AUTHORIZE_PARAMS = [
  'client_id', 'redirect_uri', 'response_type', 'response_mode', 'state', 'scope', 'nonce', 'code_challenge',
  'code_challenge_method', 'prompt', 'max_age', 'screen_hint', 'login_hint', 'auth_after', 'resource', 'dpop_jkt',
] as const;

export interface AuthorizationRequest extends ResponseTarget {
  readonly client: AuthorizeClient;
  readonly responseType: ResponseType;
  readonly state: string;
  readonly scope: string[];
  readonly nonce?: string;
  readonly codeChallenge?: string;
  readonly prompt: ReadonlySet<string>;
  /** OpenID Connect Core section 3.1.2.1 max_age, seconds. */
  readonly maxAge?: number;
  /**
   * Set by this server on the resume URL after it sent the browser to sign in again (prompt=login,
   * max_age): the session must have authenticated at or after this Unix time.
   */
  readonly authAfter?: number;
  readonly screenHint?: string;
  /** RFC 8707 resource indicator, allowed to the client: the access token's aud. */
  readonly resource?: string;
  /** RFC 9449 section 10: the DPoP key thumbprint the code is bound to. */
  readonly dpopJkt?: string;
  /** The recognised parameters as given, for the URL that resumes the request after sign-in or consent. */
  readonly params: Record<string, string>;
}

export type ParsedAuthorization =
  | { kind: 'fatal'; description: string }
  | { kind: 'error'; target: ResponseTarget; error: string; description: string }
  | { kind: 'ok'; request: AuthorizationRequest };

/** One string per parameter: RFC 6749 section 3.1, parameters MUST NOT be included more than once. */
function singleValues(raw: Record<string, unknown>): { params: Record<string, string>; repeated: string[] } {
  const params: Record<string, string> = {};
  const repeated: string[] = [];
  for (const name of AUTHORIZE_PARAMS) {
    const value = raw[name];
    if (value === undefined) continue;
    if (typeof value !== 'string') {
      repeated.push(name);
      continue;
    }
    if (value !== '') params[name] = value;
  }
  return { params, repeated };
}

export interface ParseInput {
  readonly config: Pick<Config, 'redirectUris' | 'allowedOrigins' | 'defaultAuthorizeResponseType' | 'defaultAuthorizeResponseMode'>;
  readonly raw: Record<string, unknown>;
  /** Looks the client up (instance or active registered client). */
  readonly findClient: (clientId: string) => Promise<AuthorizeClient | undefined>;
}

export async function parseAuthorizationRequest({ config, raw, findClient }: ParseInput): Promise<ParsedAuthorization> {
  const { params, repeated } = singleValues(raw);
  if (repeated.includes('client_id') || repeated.includes('redirect_uri')) {
    return { kind: 'fatal', description: 'client_id and redirect_uri must each be given once.' };
  }
  const tooLong = Object.entries(params).find(([, value]) => value.length > MAX_PARAM_LENGTH);
  if (tooLong?.[0] === 'client_id' || tooLong?.[0] === 'redirect_uri') return { kind: 'fatal', description: `${tooLong[0]} is too long.` };
  if (!params.client_id) return { kind: 'fatal', description: 'The request names no client (client_id is missing).' };
  const client = await findClient(params.client_id);
  if (!client) return { kind: 'fatal', description: 'The application is not known to this server, or it is disabled.' };
  const redirectUri = params.redirect_uri;
  if (!redirectUri) return { kind: 'fatal', description: 'The request names no address to return to (redirect_uri is missing).' };
  if (!redirectUriAllowed(config, client, redirectUri)) {
    return { kind: 'fatal', description: 'The address to return to (redirect_uri) is not registered for this application.' };
  }

  // From here on the client and its redirect_uri are known: refusals go back to it.
  const responseTypeText = params.response_type ?? config.defaultAuthorizeResponseType;
  const responseType: ResponseType | undefined = responseTypeText === 'code' || responseTypeText === 'token' ? responseTypeText : undefined;
  const defaultMode = defaultResponseMode(responseType ?? 'code', config.defaultAuthorizeResponseMode);
  const modeText = params.response_mode;
  const modeKnown = modeText === undefined || (RESPONSE_MODES as readonly string[]).includes(modeText);
  // OAuth 2.0 Multiple Response Type Encoding Practices section 3.0: tokens are never put in the query.
  const modeFits = !(responseType === 'token' && modeText === 'query');
  const responseMode: ResponseMode = modeKnown && modeFits && modeText ? (modeText as ResponseMode) : defaultMode;
  const state = params.state;
  const target: ResponseTarget = { redirectUri, responseMode, state };
  const refuse = (error: string, description: string): ParsedAuthorization => ({ kind: 'error', target, error, description });

  if (tooLong) return refuse('invalid_request', `${tooLong[0]} is too long`);
  if (repeated.length > 0) return refuse('invalid_request', `parameters given more than once: ${repeated.join(', ')}`);
  if (!modeKnown) return refuse('invalid_request', `unsupported response_mode ${JSON.stringify(modeText)}`);
  if (!responseType) return refuse('unsupported_response_type', 'response_type must be code or token');
  // RFC 7591 section 2.1: a dynamically registered client uses only the response types it registered.
  if (client.responseTypes && !client.responseTypes.includes(responseType)) {
    return refuse('unauthorized_client', `this client is registered for response_type ${client.responseTypes.join(', ')} only`);
  }
  if (!modeFits) return refuse('invalid_request', 'response_mode query cannot carry tokens: use fragment, form_post or web_message');
  // docs/api-overview.md#http-endpoints-outside-v1: state is required (it is the client's CSRF defence, RFC 6749 section 10.12).
  if (!state) return refuse('invalid_request', 'state is required');

  const scope = params.scope ? [...new Set(params.scope.split(' ').filter(Boolean))] : [...DEFAULT_SCOPE];
  const allowedScopes = new Set([...SUPPORTED_SCOPES, ...client.allowedScopes]);
  const unknownScopes = scope.filter((value) => !allowedScopes.has(value));
  if (unknownScopes.length > 0) return refuse('invalid_scope', `scope not available to this client: ${unknownScopes.join(' ')}`);
  if (scope.length === 0) return refuse('invalid_scope', 'scope is empty');

  const prompt = new Set((params.prompt ?? '').split(' ').filter(Boolean));
  const unknownPrompt = [...prompt].filter((value) => !PROMPTS.has(value));
  if (unknownPrompt.length > 0) return refuse('invalid_request', `unsupported prompt value: ${unknownPrompt.join(' ')}`);
  // OpenID Connect Core section 3.1.2.1: none with any other value is an error.
  if (prompt.has('none') && prompt.size > 1) return refuse('invalid_request', 'prompt=none cannot be combined with other values');

  let maxAge: number | undefined;
  if (params.max_age !== undefined) {
    if (!/^\d{1,9}$/.test(params.max_age)) return refuse('invalid_request', 'max_age must be a whole number of seconds');
    maxAge = Number(params.max_age);
  }
  let authAfter: number | undefined;
  if (params.auth_after !== undefined) {
    if (!/^\d{1,12}$/.test(params.auth_after)) return refuse('invalid_request', 'auth_after must be a Unix time');
    authAfter = Number(params.auth_after);
  }

  const resource = chosenResource(params.resource, client.allowedResources);
  if (!resource.ok) return refuse('invalid_target', resource.description);

  const dpopJkt = dpopJktParameter(params.dpop_jkt, responseType);
  if (!dpopJkt.ok) return refuse('invalid_request', dpopJkt.description);

  const nonce = params.nonce;
  let codeChallenge: string | undefined;
  if (responseType === 'code') {
    // RFC 7636 section 4.4.1 and the released line's lesson (docs/security-lessons.md): no code without
    // a challenge, and only S256. A challenge without a method is read as S256 (the client SDK sends none and
    // computes S256); that can only fail closed: a plain challenge would never match S256 of its verifier.
    const method = params.code_challenge_method ?? 'S256';
    if (method !== 'S256') return refuse('invalid_request', 'code_challenge_method must be S256 (plain is not accepted)');
    if (!params.code_challenge) return refuse('invalid_request', 'code_challenge is required (PKCE with S256)');
    if (!S256_CHALLENGE.test(params.code_challenge)) return refuse('invalid_request', 'code_challenge must be 43 base64url characters (S256)');
    codeChallenge = params.code_challenge;
  } else if (scope.includes('openid') && !nonce) {
    // OpenID Connect Core section 3.2.2.1: nonce is REQUIRED when an ID token comes from the authorization endpoint.
    return refuse('invalid_request', 'nonce is required for response_type token with the openid scope');
  }

  return {
    kind: 'ok',
    request: {
      client, responseType, responseMode, redirectUri, state, scope, nonce, codeChallenge, prompt, maxAge, authAfter,
      screenHint: params.screen_hint, resource: resource.resource, dpopJkt: dpopJkt.jkt, params,
    },
  };
}
