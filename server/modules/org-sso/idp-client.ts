/**
 * Talking to an organization's OpenID Connect IdP, every request through guarded-http.ts: discovery
 * (OpenID Connect Discovery 1.0 section 4, its issuer equal to the configured one, section 4.3), the
 * authorization request (RFC 6749 section 4.1.1 with PKCE S256, RFC 7636 section 4.3, nonce and
 * login_hint of OpenID Connect Core 3.1.2.1), the code exchange (section 4.1.3, client_secret_post
 * as RFC 6749 section 2.3.1 allows), and the ID token validated as Core 3.1.3.7 asks: signature by a key
 * of the issuer's JWKS, `iss`, our client id in `aud`, `azp` when there are several audiences, `exp` and
 * `iat` on our clock, and our nonce.
 */
import { createLocalJWKSet, jwtVerify, type JSONWebKeySet, type JWTPayload } from 'jose';
import type { Clock } from '../../kernel/deps.ts';
import { identityOfClaims, type UpstreamIdentity } from '../social/index.ts';
import { IdpError, idpRequest } from './guarded-http.ts';

export interface IdpSettings {
  issuer: string;
  clientId: string;
  /** Opened (unsealed) secret; undefined for a public client. */
  clientSecret?: string;
  scopes: string[];
  allowPrivate: boolean;
}

interface Discovered {
  issuer: string;
  authorizationEndpoint: string;
  tokenEndpoint: string;
  jwksUri: string;
}

/** Discovery documents change rarely; keys rotate, so a token with an unknown kid refetches them. */
const DISCOVERY_TTL_MS = 3600_000;
const JWKS_TTL_MS = 600_000;
const JWKS_REFETCH_COOLDOWN_MS = 30_000;
const CACHED_ISSUERS = 256;
const ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA'];

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

function endpoint(doc: Record<string, unknown>, field: string): string {
  const value = text(doc[field]);
  if (!value) throw new IdpError(`discovery document has no ${field}`);
  try {
    return new URL(value).href;
  } catch {
    throw new IdpError(`discovery ${field} is not a URL`);
  }
}

/** One per app (no module-level state: kernel/deps.ts): discovery and key caches by issuer, bounded. */
export class IdpClient {
  readonly #discovery = new Map<string, { at: number; value: Promise<Discovered> }>();
  readonly #keys = new Map<string, { at: number; keys: ReturnType<typeof createLocalJWKSet> }>();

  #discover(settings: IdpSettings): Promise<Discovered> {
    const cached = this.#discovery.get(settings.issuer);
    if (cached && Date.now() - cached.at < DISCOVERY_TTL_MS) return cached.value;
    const value = this.#loadDiscovery(settings);
    if (this.#discovery.size >= CACHED_ISSUERS) this.#discovery.delete(this.#discovery.keys().next().value!);
    this.#discovery.set(settings.issuer, { at: Date.now(), value });
    // A failed look-up is not kept: the next sign-in tries again.
    value.catch(() => this.#discovery.delete(settings.issuer));
    return value;
  }

  async #loadDiscovery(settings: IdpSettings): Promise<Discovered> {
    const answer = await idpRequest(`${settings.issuer}/.well-known/openid-configuration`, { allowPrivate: settings.allowPrivate });
    if (answer.status !== 200) throw new IdpError(`discovery answered ${answer.status}`);
    const doc = answer.body;
    if (text(doc.issuer) !== settings.issuer) throw new IdpError('discovery issuer does not match the configured issuer');
    return {
      issuer: settings.issuer,
      authorizationEndpoint: endpoint(doc, 'authorization_endpoint'),
      tokenEndpoint: endpoint(doc, 'token_endpoint'),
      jwksUri: endpoint(doc, 'jwks_uri'),
    };
  }

  async #keySet(discovered: Discovered, settings: IdpSettings, fresh: boolean): Promise<ReturnType<typeof createLocalJWKSet>> {
    const cached = this.#keys.get(discovered.jwksUri);
    const age = cached ? Date.now() - cached.at : Infinity;
    if (cached && age < JWKS_TTL_MS && !(fresh && age > JWKS_REFETCH_COOLDOWN_MS)) return cached.keys;
    const answer = await idpRequest(discovered.jwksUri, { allowPrivate: settings.allowPrivate });
    if (answer.status !== 200 || !Array.isArray(answer.body.keys)) throw new IdpError(`key set answered ${answer.status} without keys`);
    let keys: ReturnType<typeof createLocalJWKSet>;
    try {
      keys = createLocalJWKSet(answer.body as unknown as JSONWebKeySet);
    } catch {
      throw new IdpError('key set is not a JWK Set');
    }
    if (this.#keys.size >= CACHED_ISSUERS) this.#keys.delete(this.#keys.keys().next().value!);
    this.#keys.set(discovered.jwksUri, { at: Date.now(), keys });
    return keys;
  }

  async authorizeUrl(settings: IdpSettings, params: { redirectUri: string; state: string; codeChallenge: string; nonce: string; loginHint?: string }): Promise<string> {
    const url = new URL((await this.#discover(settings)).authorizationEndpoint);
    url.searchParams.set('response_type', 'code');
    url.searchParams.set('client_id', settings.clientId);
    url.searchParams.set('redirect_uri', params.redirectUri);
    url.searchParams.set('scope', settings.scopes.join(' '));
    url.searchParams.set('state', params.state);
    url.searchParams.set('code_challenge', params.codeChallenge);
    url.searchParams.set('code_challenge_method', 'S256');
    url.searchParams.set('nonce', params.nonce);
    if (params.loginHint) url.searchParams.set('login_hint', params.loginHint);
    return url.toString();
  }

  /** Exchanges the code and answers the identity of a validated ID token. */
  async identify(settings: IdpSettings, params: { code: string; redirectUri: string; verifier: string; nonce: string; clock: Clock }): Promise<UpstreamIdentity> {
    const discovered = await this.#discover(settings);
    const form = new URLSearchParams({
      grant_type: 'authorization_code',
      code: params.code,
      redirect_uri: params.redirectUri,
      code_verifier: params.verifier,
      client_id: settings.clientId,
      ...(settings.clientSecret ? { client_secret: settings.clientSecret } : {}),
    });
    const answer = await idpRequest(discovered.tokenEndpoint, { method: 'POST', form, allowPrivate: settings.allowPrivate });
    const idToken = text(answer.body.id_token);
    if (answer.status !== 200 || !idToken) {
      // RFC 6749 section 5.2 error codes are safe to log; the description is not repeated.
      throw new IdpError(`token endpoint refused the code (${answer.status} ${String(text(answer.body.error) ?? 'no id_token').slice(0, 64)})`);
    }
    const claims = await this.#validate(discovered, settings, idToken, params);
    return identityOfClaims(claims.sub!, claims);
  }

  async #validate(discovered: Discovered, settings: IdpSettings, idToken: string, params: { nonce: string; clock: Clock }): Promise<JWTPayload> {
    const verify = async (fresh: boolean) => jwtVerify(idToken, await this.#keySet(discovered, settings, fresh), {
      issuer: discovered.issuer,
      audience: settings.clientId,
      algorithms: ALGORITHMS,
      currentDate: params.clock.now(),
      clockTolerance: 60,
      requiredClaims: ['sub', 'exp', 'iat'],
    });
    let claims: JWTPayload;
    try {
      try {
        ({ payload: claims } = await verify(false));
      } catch (err) {
        // A key rotated since the cached set was read: read the set again (at most every 30 s).
        if ((err as { code?: string }).code !== 'ERR_JWKS_NO_MATCHING_KEY') throw err;
        ({ payload: claims } = await verify(true));
      }
    } catch (err) {
      if (err instanceof IdpError) throw err;
      throw new IdpError(`ID token refused: ${(err as Error).message}`);
    }
    const audiences = Array.isArray(claims.aud) ? claims.aud : [claims.aud];
    if ((audiences.length > 1 || claims.azp !== undefined) && claims.azp !== settings.clientId) throw new IdpError('ID token azp is not this client');
    if (typeof claims.nonce !== 'string' || claims.nonce !== params.nonce) throw new IdpError('ID token nonce does not match');
    if (typeof claims.sub !== 'string' || claims.sub.length === 0 || claims.sub.length > 255) throw new IdpError('ID token sub is missing or too long');
    return claims;
  }
}
