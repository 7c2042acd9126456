/**
 * The two moments we talk to an upstream: the authorization request we send the browser to (RFC 6749
 * section 4.1.1 with PKCE, RFC 7636 section 4.3, and the OIDC nonce), and the code exchange (section 4.1.3,
 * client authentication per section 2.3.1) followed by the identity: a validated ID token for OIDC
 * providers (oidc-identity.ts), the profile API for the others (profiles.ts).
 */
import type { Clock } from '../../kernel/deps.ts';
import { OidcDiscovery, oidcIdentity, validateIdToken } from './oidc-identity.ts';
import { fetchProfile, type UpstreamIdentity } from './profiles.ts';
import { endpointUrl, upstreamScopes, type EnabledProvider } from './providers.ts';
import { UpstreamError, str, upstreamRequest } from './upstream-http.ts';

export interface AuthorizeParams {
  redirectUri: string;
  state: string;
  codeChallenge: string;
  nonce: string;
}

export interface ExchangeParams {
  code: string;
  redirectUri: string;
  verifier: string;
  nonce: string;
  clock: Clock;
}

/** RFC 6749 section 2.3.1: Basic credentials are the form-encoded id and secret. */
function basicCredentials(id: string, secret: string): string {
  const encode = (value: string) => encodeURIComponent(value).replace(/%20/g, '+');
  return `Basic ${Buffer.from(`${encode(id)}:${encode(secret)}`).toString('base64')}`;
}

/** One per app: holds the discovery and JWKS caches. */
export class SocialUpstreams {
  readonly #discovery = new OidcDiscovery();

  async authorizeUrl(provider: EnabledProvider, params: AuthorizeParams): Promise<string> {
    const { spec, settings } = provider;
    const endpoint = spec.kind === 'oidc' ? (await this.#discovery.discover(spec, settings)).authorizationEndpoint : endpointUrl(settings, spec.authorizeUrl);
    const url = new URL(endpoint);
    const separator = spec.kind === 'oauth2' ? (spec.scopeSeparator ?? ' ') : ' ';
    url.searchParams.set('response_type', 'code');
    url.searchParams.set('client_id', settings.clientId);
    url.searchParams.set('redirect_uri', params.redirectUri);
    url.searchParams.set('scope', upstreamScopes(provider).join(separator));
    url.searchParams.set('state', params.state);
    if (spec.pkce) {
      url.searchParams.set('code_challenge', params.codeChallenge);
      url.searchParams.set('code_challenge_method', 'S256');
    }
    if (spec.kind === 'oidc') url.searchParams.set('nonce', params.nonce);
    if (spec.responseMode) url.searchParams.set('response_mode', spec.responseMode);
    return url.toString();
  }

  async identify(provider: EnabledProvider, params: ExchangeParams): Promise<UpstreamIdentity> {
    const { spec, settings } = provider;
    const discovered = spec.kind === 'oidc' ? await this.#discovery.discover(spec, settings) : undefined;
    const tokenUrl = discovered ? discovered.tokenEndpoint : endpointUrl(settings, (spec as { tokenUrl: string }).tokenUrl);
    const form = new URLSearchParams({ grant_type: 'authorization_code', code: params.code, redirect_uri: params.redirectUri });
    const headers: Record<string, string> = {};
    if (spec.clientAuth === 'client_secret_basic') {
      headers.authorization = basicCredentials(settings.clientId, settings.clientSecret);
    } else {
      form.set('client_id', settings.clientId);
      form.set('client_secret', settings.clientSecret);
    }
    if (spec.pkce) form.set('code_verifier', params.verifier);
    const answer = await upstreamRequest(tokenUrl, { method: 'POST', headers, form });
    const accessToken = str(answer.body.access_token);
    if (answer.status !== 200 || (!accessToken && !str(answer.body.id_token))) {
      // RFC 6749 section 5.2 error codes are safe to log; the description is not repeated.
      throw new UpstreamError(`token endpoint refused the code (${answer.status} ${String(str(answer.body.error) ?? 'no error code').slice(0, 64)})`);
    }
    if (discovered) {
      const idToken = str(answer.body.id_token);
      if (!idToken) throw new UpstreamError('token response has no id_token');
      const claims = await validateIdToken(discovered, { idToken, clientId: settings.clientId, nonce: params.nonce, clock: params.clock });
      return oidcIdentity(discovered, claims, accessToken);
    }
    if (!accessToken) throw new UpstreamError('token response has no access_token');
    return fetchProfile(spec.name, settings, accessToken);
  }
}
