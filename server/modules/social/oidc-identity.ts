/**
 * OpenID Connect upstreams (google, microsoft, apple): discovery (OpenID Connect Discovery 1.0 section 4),
 * then the ID token validated as OpenID Connect Core 1.0 section 3.1.3.7 asks: signature with a key of the
 * issuer's JWKS, `iss` equal to the discovered issuer, our client id in `aud` (and `azp` when there are
 * several audiences), `exp` and `iat` on our clock, and the `nonce` we sent. Claims an ID token leaves out
 * come from the userinfo endpoint, whose `sub` must match (Core section 5.3.2).
 */
import { createRemoteJWKSet, decodeJwt, jwtVerify, type JWTPayload, type JWTVerifyGetKey } from 'jose';
import type { Clock } from '../../kernel/deps.ts';
import type { UpstreamIdentity } from './profiles.ts';
import { issuerOf, type OidcProviderSpec, type ProviderSettings } from './providers.ts';
import { UpstreamError, getWithToken, str, upstreamRequest } from './upstream-http.ts';

export interface DiscoveredIssuer {
  issuer: string;
  authorizationEndpoint: string;
  tokenEndpoint: string;
  userinfoEndpoint?: string;
  jwks: JWTVerifyGetKey;
}

/** Discovery documents change rarely; an hour keeps key rotation (handled by jose's JWKS cache) separate. */
const DISCOVERY_TTL_MS = 3600_000;
/** Microsoft's multi-tenant issuers hold this placeholder for the tenant (`tid`) of each token. */
const TENANT_PLACEHOLDER = '{tenantid}';
const ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA'];

function httpUrl(value: unknown, field: string): string {
  const text = str(value);
  if (!text) throw new UpstreamError(`discovery document has no ${field}`);
  const url = new URL(text);
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new UpstreamError(`discovery ${field} is not http(s)`);
  return url.href;
}

/** One cache per app (no module-level state: kernel/deps.ts). */
export class OidcDiscovery {
  readonly #cache = new Map<string, { at: number; value: Promise<DiscoveredIssuer> }>();

  discover(spec: OidcProviderSpec, settings: ProviderSettings): Promise<DiscoveredIssuer> {
    const issuer = issuerOf(spec, settings);
    const cached = this.#cache.get(issuer);
    if (cached && Date.now() - cached.at < DISCOVERY_TTL_MS) return cached.value;
    const value = this.#load(issuer);
    this.#cache.set(issuer, { at: Date.now(), value });
    // A failed look-up is not kept: the next sign-in tries again.
    value.catch(() => this.#cache.delete(issuer));
    return value;
  }

  async #load(expectedIssuer: string): Promise<DiscoveredIssuer> {
    const answer = await upstreamRequest(`${expectedIssuer}/.well-known/openid-configuration`);
    if (answer.status !== 200) throw new UpstreamError(`discovery answered ${answer.status}`);
    const doc = answer.body;
    const issuer = str(doc.issuer);
    // Discovery section 4.3: the issuer must be the URL the document was asked of (Microsoft's multi-tenant
    // documents name the placeholder instead; their tokens are checked against it with their own tid).
    if (issuer !== expectedIssuer && !(issuer?.includes(TENANT_PLACEHOLDER) && expectedIssuer.startsWith('https://login.microsoftonline.com/'))) {
      throw new UpstreamError('discovery issuer does not match the configured issuer');
    }
    return {
      issuer,
      authorizationEndpoint: httpUrl(doc.authorization_endpoint, 'authorization_endpoint'),
      tokenEndpoint: httpUrl(doc.token_endpoint, 'token_endpoint'),
      userinfoEndpoint: doc.userinfo_endpoint === undefined ? undefined : httpUrl(doc.userinfo_endpoint, 'userinfo_endpoint'),
      jwks: createRemoteJWKSet(new URL(httpUrl(doc.jwks_uri, 'jwks_uri')), { timeoutDuration: 10_000 }),
    };
  }
}

/** Apple sends email_verified as the string "true". */
function asserted(value: unknown): boolean {
  return value === true || value === 'true';
}

function expectedIssuerFor(discovered: DiscoveredIssuer, claims: JWTPayload): string {
  if (!discovered.issuer.includes(TENANT_PLACEHOLDER)) return discovered.issuer;
  const tenant = str(claims.tid);
  if (!tenant) throw new UpstreamError('ID token has no tid for a multi-tenant issuer');
  return discovered.issuer.replace(TENANT_PLACEHOLDER, tenant);
}

export interface IdTokenCheck {
  idToken: string;
  clientId: string;
  nonce: string;
  clock: Clock;
}

export async function validateIdToken(discovered: DiscoveredIssuer, check: IdTokenCheck): Promise<JWTPayload> {
  let claims: JWTPayload;
  try {
    const unverified = decodeJwt(check.idToken);
    ({ payload: claims } = await jwtVerify(check.idToken, discovered.jwks, {
      issuer: expectedIssuerFor(discovered, unverified),
      audience: check.clientId,
      algorithms: ALGORITHMS,
      currentDate: check.clock.now(),
      clockTolerance: 60,
      requiredClaims: ['sub', 'exp', 'iat'],
    }));
  } catch (err) {
    if (err instanceof UpstreamError) throw err;
    throw new UpstreamError(`ID token refused: ${(err as Error).message}`);
  }
  const audiences = Array.isArray(claims.aud) ? claims.aud : [claims.aud];
  if (audiences.length > 1 && claims.azp !== check.clientId) throw new UpstreamError('ID token azp is not this client');
  if (typeof claims.nonce !== 'string' || claims.nonce !== check.nonce) throw new UpstreamError('ID token nonce does not match');
  return claims;
}

/**
 * The standard claims (OpenID Connect Core 5.1) of a validated ID token or userinfo answer as an identity,
 * for social and organization (org-sso/idp-client.ts) sign-in alike. `email_verified` counts only when
 * asserted (true, or Apple's string "true").
 */
export function identityOfClaims(subject: string, claims: Record<string, unknown>): UpstreamIdentity {
  return {
    subject,
    email: str(claims.email),
    emailVerified: asserted(claims.email_verified),
    givenName: str(claims.given_name),
    familyName: str(claims.family_name),
    nickname: str(claims.nickname),
    preferredUsername: str(claims.preferred_username),
    picture: str(claims.picture),
  };
}

/** The identity of an OIDC sign-in: the ID token's claims, completed from userinfo when it lacks the email. */
export async function oidcIdentity(discovered: DiscoveredIssuer, claims: JWTPayload, accessToken: string | undefined): Promise<UpstreamIdentity> {
  let source: Record<string, unknown> = claims;
  if (!str(claims.email) && discovered.userinfoEndpoint && accessToken) {
    const info = await getWithToken(discovered.userinfoEndpoint, accessToken);
    if (info && typeof info === 'object' && (info as Record<string, unknown>).sub === claims.sub) {
      source = { ...(info as Record<string, unknown>), ...claims, email: (info as Record<string, unknown>).email, email_verified: (info as Record<string, unknown>).email_verified };
    } else {
      throw new UpstreamError('userinfo sub does not match the ID token');
    }
  }
  const identity = identityOfClaims(claims.sub!, source);
  // Microsoft's optional xms_edov claim: the address's domain is verified by the tenant that owns it.
  return { ...identity, emailVerified: identity.emailVerified || asserted(source.xms_edov) };
}
