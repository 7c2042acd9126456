import { defineEntity, p } from '@mikro-orm/core';

/** docs/api-overview.md#states-and-transitions, "SAML IdP key": the one signing key, a published one kept for rollover, or retired. */
export const SAML_IDP_KEY_STATES = ['current', 'published', 'retired'] as const;
export type SamlIdpKeyState = (typeof SAML_IDP_KEY_STATES)[number];

/**
 * One signing key of an organization's SAML identity provider (docs/api-overview.md#states-and-transitions, "SAML IdP key",
 * docs/operations.md, "SAML IdP"): RSA 2048 with a self-signed X.509 certificate (the form SAML metadata carries keys
 * in, Metadata 2.4.1.1 KeyDescriptor). The private key is sealed (kernel/encryption.ts); the certificate
 * is public.
 *
 * `signingOrgId` holds the orgId while the key is current and null otherwise: its unique index makes "one
 * current key per organization" hold on every database, even when two first uses race to create it.
 */
export const SamlIdpKey = defineEntity({
  name: 'SamlIdpKey',
  tableName: 'saml_idp_keys',
  properties: {
    id: p.string().primary().length(36),
    orgId: p.string().length(36).index(),
    state: p.string().length(16),
    signingOrgId: p.string().length(36).nullable().unique(),
    certificatePem: p.text(),
    privateKeySealed: p.text(),
    fingerprintSha256: p.string().length(128),
    notAfter: p.datetime(),
    createdAt: p.datetime(),
    demotedAt: p.datetime().nullable(),
    retiredAt: p.datetime().nullable(),
  },
});
export type SamlIdpKeyRow = InstanceType<typeof SamlIdpKey.class>;

/** One assertion consumer service of a service provider (SAML 2.0 Metadata 2.4.4, Bindings 3.5 HTTP-POST). */
export interface AcsEndpoint {
  url: string;
  binding: string;
  index: number;
  isDefault: boolean;
}

/**
 * A downstream SAML service provider of one organization (docs/api-overview.md#resources-and-fields, "SAML service provider":
 * name, endpoints, certificate, attribute mapping, active state). `entityId` is unique within the
 * organization (the composite unique index). With a certificate set, the SP's AuthnRequests must be signed
 * by it (Metadata 2.4.4 AuthnRequestsSigned, enforced by the IdP). `attributeMapping` maps our user fields
 * to the SAML attribute names the SP expects.
 */
export const SamlServiceProvider = defineEntity({
  name: 'SamlServiceProvider',
  tableName: 'saml_service_providers',
  uniques: [{ properties: ['orgId', 'entityId'] }],
  properties: {
    id: p.string().primary().length(36),
    orgId: p.string().length(36).index(),
    name: p.string().length(255),
    entityId: p.string().length(1024),
    acsEndpoints: p.json<AcsEndpoint[]>(),
    certificatePem: p.text().nullable(),
    attributeMapping: p.json<Record<string, string>>(),
    nameIdFormat: p.string().length(128),
    /** SingleLogoutService where the IdP answers the SP's signed LogoutRequests; null: no SLO. */
    sloUrl: p.string().length(2048).nullable(),
    /** Its binding, `redirect` or `post` (sp-fields.ts SLO_BINDINGS); null beside a URL stored before it was kept: `post`. */
    sloBinding: p.string().length(16).nullable(),
    active: p.boolean(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});
export type SamlServiceProviderRow = InstanceType<typeof SamlServiceProvider.class>;
