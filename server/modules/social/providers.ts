/**
 * The social sign-in catalogue (docs/api-overview.md#http-endpoints-outside-v1, "/oauth_login/<oauth_provider>"): where each upstream
 * authorises and exchanges codes, which scopes it is asked for by default, whether it takes PKCE (RFC 7636)
 * and how it wants the client secret (RFC 6749 section 2.3.1: HTTP Basic or the request body).
 *
 * Two kinds. OpenID Connect providers (google, microsoft, apple) are found by discovery (OpenID Connect
 * Discovery 1.0 section 4) and identify the user with a validated ID token. Plain OAuth 2.0 providers name
 * their endpoints here and identify the user through a profile API (profiles.ts).
 *
 * --<provider>-base-url points a provider at another upstream: for OIDC providers it is the issuer whose
 * discovery document is read; for the others it replaces the origin of every endpoint, paths kept
 * (github.com/login/oauth/authorize and api.github.com/user both move onto the one test server).
 */
import type { Config, SocialProvider } from '../../config/flags.ts';

export type ClientAuthMethod = 'client_secret_post' | 'client_secret_basic';

interface ProviderBase {
  readonly name: SocialProvider;
  /** Scopes asked for when --<provider>-scopes is empty. */
  readonly defaultScopes: readonly string[];
  /** Sends code_challenge (S256) and code_verifier: only where the provider documents PKCE. */
  readonly pkce: boolean;
  readonly clientAuth: ClientAuthMethod;
  /** Apple answers with a cross-site POST (OAuth 2.0 Form Post Response Mode) when names or email are asked for. */
  readonly responseMode?: 'form_post';
}

export interface OidcProviderSpec extends ProviderBase {
  readonly kind: 'oidc';
  /** The issuer whose /.well-known/openid-configuration is read (OpenID Connect Discovery 1.0 section 4). */
  issuer(settings: ProviderSettings): string;
}

export interface OAuth2ProviderSpec extends ProviderBase {
  readonly kind: 'oauth2';
  readonly authorizeUrl: string;
  readonly tokenUrl: string;
  /** Joins scopes in the authorize URL (RFC 6749 section 3.3 says space; some providers read commas). */
  readonly scopeSeparator?: string;
}

export type ProviderSpec = OidcProviderSpec | OAuth2ProviderSpec;

export type ProviderSettings = NonNullable<Config['social'][SocialProvider]>;

const CATALOGUE: Record<SocialProvider, ProviderSpec> = {
  google: {
    name: 'google',
    kind: 'oidc',
    issuer: () => 'https://accounts.google.com',
    defaultScopes: ['openid', 'email', 'profile'],
    pkce: true,
    clientAuth: 'client_secret_post',
  },
  microsoft: {
    name: 'microsoft',
    kind: 'oidc',
    // Microsoft identity platform v2.0; tenant "common", "organizations", "consumers" or a tenant id.
    issuer: (settings) => `https://login.microsoftonline.com/${encodeURIComponent(settings.tenantId || 'common')}/v2.0`,
    defaultScopes: ['openid', 'email', 'profile'],
    pkce: true,
    clientAuth: 'client_secret_post',
  },
  apple: {
    name: 'apple',
    kind: 'oidc',
    issuer: () => 'https://appleid.apple.com',
    // Sign in with Apple asks for name and email, not profile; openid is implied by the ID token it returns.
    defaultScopes: ['openid', 'name', 'email'],
    pkce: false,
    clientAuth: 'client_secret_post',
    responseMode: 'form_post',
  },
  github: {
    name: 'github',
    kind: 'oauth2',
    authorizeUrl: 'https://github.com/login/oauth/authorize',
    tokenUrl: 'https://github.com/login/oauth/access_token',
    defaultScopes: ['read:user', 'user:email'],
    pkce: true,
    clientAuth: 'client_secret_post',
  },
  facebook: {
    name: 'facebook',
    kind: 'oauth2',
    authorizeUrl: 'https://www.facebook.com/v19.0/dialog/oauth',
    tokenUrl: 'https://graph.facebook.com/v19.0/oauth/access_token',
    defaultScopes: ['email', 'public_profile'],
    scopeSeparator: ',',
    pkce: true,
    clientAuth: 'client_secret_post',
  },
  linkedin: {
    name: 'linkedin',
    kind: 'oauth2',
    authorizeUrl: 'https://www.linkedin.com/oauth/v2/authorization',
    tokenUrl: 'https://www.linkedin.com/oauth/v2/accessToken',
    defaultScopes: ['openid', 'profile', 'email'],
    pkce: false,
    clientAuth: 'client_secret_post',
  },
  discord: {
    name: 'discord',
    kind: 'oauth2',
    authorizeUrl: 'https://discord.com/oauth2/authorize',
    tokenUrl: 'https://discord.com/api/oauth2/token',
    defaultScopes: ['identify', 'email'],
    pkce: false,
    clientAuth: 'client_secret_post',
  },
  twitter: {
    name: 'twitter',
    kind: 'oauth2',
    authorizeUrl: 'https://twitter.com/i/oauth2/authorize',
    tokenUrl: 'https://api.twitter.com/2/oauth2/token',
    defaultScopes: ['users.read', 'tweet.read'],
    // X requires PKCE and, for confidential clients, HTTP Basic at the token endpoint.
    pkce: true,
    clientAuth: 'client_secret_basic',
  },
  twitch: {
    name: 'twitch',
    kind: 'oauth2',
    authorizeUrl: 'https://id.twitch.tv/oauth2/authorize',
    tokenUrl: 'https://id.twitch.tv/oauth2/token',
    defaultScopes: ['user:read:email'],
    pkce: false,
    clientAuth: 'client_secret_post',
  },
  roblox: {
    name: 'roblox',
    kind: 'oauth2',
    authorizeUrl: 'https://apis.roblox.com/oauth/v1/authorize',
    tokenUrl: 'https://apis.roblox.com/oauth/v1/token',
    defaultScopes: ['openid', 'profile'],
    pkce: true,
    clientAuth: 'client_secret_basic',
  },
};

export interface EnabledProvider {
  readonly spec: ProviderSpec;
  readonly settings: ProviderSettings;
}

/** The provider named in a path, only when it is known and has a client id (--<provider>-client-id). */
export function enabledProvider(config: Pick<Config, 'social'>, name: string): EnabledProvider | undefined {
  if (!Object.hasOwn(CATALOGUE, name)) return undefined;
  const provider = name as SocialProvider;
  const settings = config.social[provider];
  return settings ? { spec: CATALOGUE[provider], settings } : undefined;
}

/** The scopes asked of the upstream: --<provider>-scopes, else the catalogue's. */
export function upstreamScopes(provider: EnabledProvider): string[] {
  return provider.settings.scopes.length > 0 ? [...provider.settings.scopes] : [...provider.spec.defaultScopes];
}

/**
 * An endpoint of a plain OAuth 2.0 provider, moved onto --<provider>-base-url when one is set: the base's
 * origin and path prefix, then the endpoint's own path and query.
 */
export function endpointUrl(settings: ProviderSettings, url: string): string {
  if (!settings.baseUrl) return url;
  const parsed = new URL(url);
  return `${settings.baseUrl}${parsed.pathname}${parsed.search}`;
}

/** The issuer an OIDC provider is discovered from: --<provider>-base-url, else the catalogue's. */
export function issuerOf(spec: OidcProviderSpec, settings: ProviderSettings): string {
  return settings.baseUrl ?? spec.issuer(settings);
}
