/**
 * Who may ask /authorize for a code or a token, and where the answer may go (RFC 6749 sections 2.2 and
 * 3.1.2; RFC 9700 section 4.1.3: redirect URIs are compared by exact string match). The instance client
 * (--client-id) uses --redirect-uris; with none given, a redirect_uri whose origin is named explicitly in
 * --allowed-origins (exact or a `*.` pattern, never the bare `*`, which names no origin: kernel/origins.ts).
 * A registered client uses its own redirect_uris, exactly.
 */
import type { EntityManager } from '@mikro-orm/core';
import type { Config } from '../../config/flags.ts';
import { constantTimeEqual } from '../../kernel/crypto.ts';
import { originListed } from '../../kernel/origins.ts';
import { Client } from '../clients/index.ts';

export interface AuthorizeClient {
  readonly clientId: string;
  /** Shown on the consent screen. */
  readonly name: string;
  /** False for the instance client. */
  readonly registered: boolean;
  /** Registered with consent_required; the instance client is first-party. */
  readonly consentRequired: boolean;
  /** Extra scopes the client was registered with, besides the OpenID ones. */
  readonly allowedScopes: readonly string[];
  readonly redirectUris: readonly string[];
  /** RFC 9126 section 6: the client's authorization requests are accepted only through POST /oauth/par. */
  readonly requirePushedAuthorizationRequests: boolean;
  /** RFC 8707 resource indicators the client may name (its allowed_resources). */
  readonly allowedResources: readonly string[];
  /** RFC 7591 section 2 response_types of a client registered at /oauth/register; absent: code and token. */
  readonly responseTypes?: readonly string[];
}

/** The instance client or an active registered client with this client_id; undefined otherwise. */
export async function findAuthorizeClient(
  config: Pick<Config, 'clientId' | 'organizationName'>,
  em: EntityManager,
  clientId: string,
): Promise<AuthorizeClient | undefined> {
  if (clientId === '' || clientId.length > 64) return undefined;
  if (config.clientId && constantTimeEqual(clientId, config.clientId)) {
    return { clientId, name: config.organizationName, registered: false, consentRequired: false, allowedScopes: [], redirectUris: [], requirePushedAuthorizationRequests: false, allowedResources: [] };
  }
  const row = await em.findOne(Client, { clientId });
  if (!row || !row.isActive) return undefined;
  return {
    clientId: row.clientId,
    name: row.name,
    registered: true,
    consentRequired: row.consentRequired,
    allowedScopes: row.allowedScopes,
    redirectUris: row.redirectUris,
    requirePushedAuthorizationRequests: row.requirePushedAuthorizationRequests === true,
    allowedResources: row.allowedResources ?? [],
    ...(row.registration ? { responseTypes: row.registration.response_types } : {}),
  };
}

function parsedHttpUrl(uri: string): URL | undefined {
  try {
    const url = new URL(uri);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
    if (url.username || url.password) return undefined;
    return url;
  } catch {
    return undefined;
  }
}

/** Whether the answer of /authorize may be sent to `uri` for this client. */
export function redirectUriAllowed(config: Pick<Config, 'redirectUris' | 'allowedOrigins'>, client: AuthorizeClient, uri: string): boolean {
  // RFC 6749 section 3.1.2: the endpoint URI MUST NOT include a fragment component.
  if (uri.includes('#')) return false;
  const url = parsedHttpUrl(uri);
  if (!url) return false;
  if (client.registered) return client.redirectUris.includes(uri);
  if (config.redirectUris.length > 0) return config.redirectUris.includes(uri);
  return originListed(config.allowedOrigins.filter((entry) => entry !== '*'), url.origin);
}
