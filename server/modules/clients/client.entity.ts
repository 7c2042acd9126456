import { defineEntity, p } from '@mikro-orm/core';

/**
 * A registered OAuth 2.0 client (docs/operations.md, "Client registry"; docs/api-overview.md#resources-and-fields, "Client"). The
 * secret is never stored: only its digest (client-secret.ts), and during a rotation's grace window the
 * digest of the secret it replaced (docs/api-overview.md#states-and-transitions: "old secret keeps validating during a grace
 * window"). Neither digest is ever returned (clients.schema.ts toPublicClient).
 */
export const Client = defineEntity({
  name: 'Client',
  tableName: 'clients',
  properties: {
    id: p.string().primary().length(36),
    /** The public identifier a relying party presents (random, client-secret.ts newClientId). */
    clientId: p.string().length(64).unique(),
    name: p.string().length(255),
    description: p.string().length(1024),
    allowedScopes: p.json<string[]>(),
    /** Absolute http(s) URLs; /authorize will compare redirect_uri with them by exact string match. */
    redirectUris: p.json<string[]>(),
    /**
     * Where /logout may send the browser afterwards (OpenID Connect RP-Initiated Logout 1.0 section 3.1, the
     * `post_logout_redirect_uris` metadata of section 3.2), compared by exact string like redirectUris and
     * apart from them: a logged-out page is no /authorize target. Null only in a row written before the column
     * existed, until data migration 0003 fills it; read it through postLogoutRedirectUrisOf.
     */
    postLogoutRedirectUris: p.json<string[]>().nullable(),
    consentRequired: p.boolean(),
    /**
     * RFC 9126 section 6 require_pushed_authorization_requests: /authorize serves this client only through a
     * request_uri from POST /oauth/par. Null in a row written before the column existed, read as false.
     */
    requirePushedAuthorizationRequests: p.boolean().nullable(),
    /**
     * RFC 8707 resource indicators this client may name (`resource` at /authorize, /oauth/par and the token
     * endpoint: allowed-resources.ts); the access token's aud then names that resource. Null in a row written
     * before the column existed: none.
     */
    allowedResources: p.json<string[]>().nullable(),
    isActive: p.boolean(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
    /** Digest of the current secret (hex). */
    secretHash: p.string().length(64),
    /** Digest of the secret replaced by the last rotation, valid until previousSecretExpiresAt. */
    previousSecretHash: p.string().length(64).nullable(),
    previousSecretExpiresAt: p.datetime().nullable(),
    /**
     * The RFC 7591 section 2 metadata of a client registered at /oauth/register (registration.endpoint.ts);
     * null for a client an admin created. Its presence is what marks the client as dynamically registered.
     */
    registration: p.json<ClientRegistration>().nullable(),
    /** Digest of the RFC 7592 registration access token (client-secret.ts label), for a dynamically registered client. */
    registrationTokenHash: p.string().length(64).nullable(),
  },
});

/**
 * What RFC 7591 section 2 metadata a dynamically registered client keeps beyond the registry's own columns
 * (redirect_uris, scope as allowedScopes, client_name as name). token_endpoint_auth_method `none` makes it a
 * public client (RFC 6749 section 2.1) that redeems codes with PKCE alone.
 */
export interface ClientRegistration {
  token_endpoint_auth_method: 'none' | 'client_secret_basic' | 'client_secret_post';
  grant_types: string[];
  response_types: string[];
  client_uri?: string;
  logo_uri?: string;
  contacts?: string[];
  jwks_uri?: string;
  jwks?: { keys: unknown[] };
  software_id?: string;
  software_version?: string;
  /** OpenID Connect Back-Channel Logout 1.0 section 2.2 (oauth/backchannel; clients/backchannel-logout-uri.ts). */
  backchannel_logout_uri?: string;
  backchannel_logout_session_required?: boolean;
  /** RFC 9449 section 5.2: the client always presents a DPoP proof at the token endpoint (docs/dpop.md). */
  dpop_bound_access_tokens?: boolean;
}

/** Whether the client is public: registered at /oauth/register with token_endpoint_auth_method none. */
export function isPublicClient(row: Pick<ClientRow, 'registration'>): boolean {
  return row.registration?.token_endpoint_auth_method === 'none';
}

export type ClientRow = InstanceType<typeof Client.class>;

/** The client's post-logout redirect URIs; none for a row the data migration has not reached. */
export function postLogoutRedirectUrisOf(row: Pick<ClientRow, 'postLogoutRedirectUris'>): string[] {
  return row.postLogoutRedirectUris ?? [];
}
