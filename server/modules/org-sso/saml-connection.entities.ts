import { defineEntity, p } from '@mikro-orm/core';

/**
 * An organization's upstream SAML 2.0 identity provider, this server being the service provider
 * (docs/api-overview.md#resources-and-fields, "Upstream org connections", docs/operations.md, "Org SSO connections"): one per organization
 * (`orgId` unique). Nothing here is secret: the IdP's certificates are public keys, and the SP signs
 * nothing (its metadata says AuthnRequestsSigned="false"), so no key is held.
 *
 * The attribute names are null for the defaults (saml-attributes.ts). `allowedEmailDomains` narrows which
 * addresses the IdP may sign in, as for OIDC (org-sso.entities.ts); it never widens what the IdP is trusted
 * for.
 */
export const OrgSamlConnection = defineEntity({
  name: 'OrgSamlConnection',
  tableName: 'org_saml_connections',
  properties: {
    id: p.string().primary().length(36),
    orgId: p.string().length(36).unique(),
    /** The IdP's entityID: the Issuer of its responses and assertions (SAML 2.0 Core 2.2.5). */
    idpEntityId: p.string().length(1024),
    /** Its SingleSignOnService location for the HTTP-Redirect binding (SAML 2.0 Bindings 3.4). */
    idpSsoUrl: p.string().length(2048),
    /** PEM certificates whose keys may sign the IdP's assertions (several during a key rollover). */
    idpCertificates: p.json<string[]>(),
    emailAttribute: p.string().length(255).nullable(),
    givenNameAttribute: p.string().length(255).nullable(),
    familyNameAttribute: p.string().length(255).nullable(),
    allowedEmailDomains: p.json<string[]>(),
    enabled: p.boolean(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});
export type OrgSamlConnectionRow = InstanceType<typeof OrgSamlConnection.class>;

/**
 * One SAML sign-in between /sso/<org>/start and /sso/saml/<org>/acs (saml-login-state.ts): named by the
 * digest of the RelayState handle, bound to the starting browser by the digest of its cookie, holding the
 * ID of the AuthnRequest we sent, so that only a response InResponseTo that request, in that browser, is
 * taken (SAML 2.0 Profiles 4.1.4.3; unsolicited responses are refused). Used once, ten minutes.
 * `connectionId` and `idpEntityId` pin the flow to the connection it started with.
 */
export const OrgSamlLoginState = defineEntity({
  name: 'OrgSamlLoginState',
  tableName: 'org_saml_login_states',
  properties: {
    id: p.string().primary().length(64),
    orgId: p.string().length(36),
    connectionId: p.string().length(36).index(),
    idpEntityId: p.string().length(1024),
    requestId: p.string().length(64),
    bindingHash: p.string().length(64),
    redirectUri: p.text(),
    appState: p.text(),
    scope: p.json<string[]>(),
    expiresAt: p.datetime().index(),
    createdAt: p.datetime(),
  },
});
export type OrgSamlLoginStateRow = InstanceType<typeof OrgSamlLoginState.class>;

/**
 * An assertion already used to sign in (SAML 2.0 Profiles 4.1.4.5: the SP must keep a bearer assertion's
 * ID until it expires and refuse it again). Keyed by the digest of `<connectionId>:<assertion ID>`, so a
 * second use collides on the primary key on every database; kept until the assertion's own expiry.
 */
export const OrgSamlAssertionUse = defineEntity({
  name: 'OrgSamlAssertionUse',
  tableName: 'org_saml_assertion_uses',
  properties: {
    id: p.string().primary().length(64),
    orgId: p.string().length(36).index(),
    expiresAt: p.datetime().index(),
  },
});
