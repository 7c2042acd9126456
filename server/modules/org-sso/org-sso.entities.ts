import { defineEntity, p } from '@mikro-orm/core';

/**
 * An organization's upstream OpenID Connect identity provider
 * (docs/api-overview.md#resources-and-fields, "Upstream org connections", docs/operations.md, "Org SSO
 * connections"): one per organization (`orgId` unique). The client secret
 * is sealed with deps.sealer (kernel/encryption.ts) and never leaves the server in an answer. A disabled
 * connection, or one of a disabled organization, signs nobody in.
 *
 * `allowedEmailDomains` (empty: any) narrows which addresses the IdP may sign in; it never widens what the
 * IdP is trusted for: only the organization's verified domains make its word about an address count.
 */
export const OrgOidcConnection = defineEntity({
  name: 'OrgOidcConnection',
  tableName: 'org_oidc_connections',
  properties: {
    id: p.string().primary().length(36),
    orgId: p.string().length(36).unique(),
    /** The issuer whose /.well-known/openid-configuration is read (OpenID Connect Discovery 1.0 section 4). */
    issuer: p.string().length(2048),
    clientId: p.string().length(255),
    /** Sealed client secret (kernel/encryption.ts); null for a public client. */
    clientSecret: p.text().nullable(),
    scopes: p.json<string[]>(),
    allowedEmailDomains: p.json<string[]>(),
    enabled: p.boolean(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});
export type OrgOidcConnectionRow = InstanceType<typeof OrgOidcConnection.class>;

/**
 * A user's identity at one organization's IdP: the IdP's stable `sub` under that connection (OpenID
 * Connect Core 5.7: sub with iss is the only stable identifier). The primary key is
 * `<connectionId>:<sub>`, so two concurrent first sign-ins collide on every database. Carries `orgId` so
 * that deleting the organization removes the links with it.
 */
export const OrgSsoIdentity = defineEntity({
  name: 'OrgSsoIdentity',
  tableName: 'org_sso_identities',
  properties: {
    id: p.string().primary().length(300),
    orgId: p.string().length(36).index(),
    connectionId: p.string().length(36).index(),
    subject: p.string().length(255),
    userId: p.string().length(36).index(),
    createdAt: p.datetime(),
  },
});
export type OrgSsoIdentityRow = InstanceType<typeof OrgSsoIdentity.class>;

/**
 * One SSO sign-in between /sso/<org>/start and /sso/oidc/callback (login-state.ts): keyed by the SHA-256
 * of the `state` sent upstream, bound to the starting browser by the digest of its cookie, PKCE verifier
 * and nonce sealed, used once, ten minutes. `connectionId` and `issuer` pin the flow to the connection it
 * started with: a connection deleted or repointed meanwhile fails the callback. `orgId` lets
 * delete_organization end flows in flight.
 */
export const OrgSsoLoginState = defineEntity({
  name: 'OrgSsoLoginState',
  tableName: 'org_sso_login_states',
  properties: {
    id: p.string().primary().length(64),
    orgId: p.string().length(36),
    connectionId: p.string().length(36),
    issuer: p.string().length(2048),
    bindingHash: p.string().length(64),
    /** Sealed JSON {verifier, nonce}. */
    secrets: p.text(),
    redirectUri: p.text(),
    appState: p.text(),
    scope: p.json<string[]>(),
    expiresAt: p.datetime().index(),
    createdAt: p.datetime(),
  },
});
export type OrgSsoLoginStateRow = InstanceType<typeof OrgSsoLoginState.class>;
