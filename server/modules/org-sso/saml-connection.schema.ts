/**
 * Wire shapes of the organization SAML connection operations
 * (docs/operations.md, "Org SSO connections"; docs/api-overview.md#resources-and-fields: on update a new IdP
 * certificate replaces the stored ones, none given keeps them).
 * The answer names the service provider's own addresses to register at the IdP. snake_case, timestamps in
 * Unix seconds, as the other admin records. New optional request fields go last in their object: gRPC
 * field numbers follow the order.
 */
import type { Config } from '../../config/flags.ts';
import { s, type Static } from '../../ops/schema.ts';
import type { OrgSamlConnectionRow } from './saml-connection.entities.ts';
import { certificateFacts } from './saml-certificates.ts';
import { samlAcsUrl, samlEntityId } from './sso-urls.ts';

const id = s.string({ minLength: 1, maxLength: 64 });
const idpEntityId = s.string({ minLength: 1, maxLength: 1024, description: "the IdP's entityID, the Issuer of its assertions" });
const idpSsoUrl = s.string({ minLength: 1, maxLength: 2048, description: 'https URL of the IdP single sign-on service (HTTP-Redirect binding)' });
const idpCertificate = s.string({ minLength: 1, maxLength: 32_768, multiline: true, description: 'PEM of the IdP signing certificate (several PEM blocks during a rollover)' });
const attribute = s.string({ minLength: 1, maxLength: 255 });
const domains = s.list(s.string({ minLength: 1, maxLength: 253 }), { maxItems: 50 });

export const OrgSamlIdpCertificateSchema = s.object('OrgSamlIdpCertificate', {
  fingerprint_sha256: s.string(),
  subject: s.string(),
  not_after: s.int64(),
});

export const OrgSamlConnectionSchema = s.object('OrgSamlConnection', {
  id: s.string(),
  org_id: s.string(),
  idp_entity_id: s.string(),
  idp_sso_url: s.string(),
  idp_certificates: s.list(OrgSamlIdpCertificateSchema),
  /** Absent: the defaults (NameID in emailAddress format, then the common email attributes). */
  email_attribute: s.optional(s.string()),
  given_name_attribute: s.optional(s.string()),
  family_name_attribute: s.optional(s.string()),
  allowed_email_domains: s.list(s.string()),
  enabled: s.boolean(),
  sp_entity_id: s.string({ description: '<--url>/sso/saml/<organization>/metadata' }),
  sp_acs_url: s.string({ description: '<--url>/sso/saml/<organization>/acs (HTTP-POST)' }),
  created_at: s.int64(),
  updated_at: s.int64(),
});

export const CreateOrgSamlConnectionRequest = s.object('CreateOrgSamlConnectionRequest', {
  org_id: id,
  idp_entity_id: idpEntityId,
  idp_sso_url: idpSsoUrl,
  idp_certificate: idpCertificate,
  email_attribute: s.optional(attribute),
  given_name_attribute: s.optional(attribute),
  family_name_attribute: s.optional(attribute),
  /** Empty: any address the IdP asserts. */
  allowed_email_domains: s.optional(domains),
  enabled: s.optional(s.boolean()),
});

/** Omitted fields stay; a new idp_certificate replaces the stored ones, an omitted one keeps them (docs/api-overview.md#resources-and-fields). */
export const UpdateOrgSamlConnectionRequest = s.object('UpdateOrgSamlConnectionRequest', {
  id,
  idp_entity_id: s.optional(idpEntityId),
  idp_sso_url: s.optional(idpSsoUrl),
  idp_certificate: s.optional(idpCertificate),
  email_attribute: s.optional(attribute),
  given_name_attribute: s.optional(attribute),
  family_name_attribute: s.optional(attribute),
  allowed_email_domains: s.optional(domains),
  enabled: s.optional(s.boolean()),
});

export const DeleteOrgSamlConnectionRequest = s.object('DeleteOrgSamlConnectionRequest', { id });

/** Exactly one of `id` and `org_id` (docs/operations.md). */
export const OrgSamlConnectionRequest = s.object('OrgSamlConnectionRequest', {
  id: s.optional(id),
  org_id: s.optional(id),
});

const seconds = (date: Date): number => Math.floor(date.getTime() / 1000);

export function toPublicSamlConnection(config: Pick<Config, 'url'>, orgName: string, row: OrgSamlConnectionRow): Static<typeof OrgSamlConnectionSchema> {
  return {
    id: row.id,
    org_id: row.orgId,
    idp_entity_id: row.idpEntityId,
    idp_sso_url: row.idpSsoUrl,
    idp_certificates: row.idpCertificates.map((pem) => {
      const facts = certificateFacts(pem);
      return { fingerprint_sha256: facts.fingerprintSha256, subject: facts.subject, not_after: seconds(facts.notAfter) };
    }),
    ...(row.emailAttribute ? { email_attribute: row.emailAttribute } : {}),
    ...(row.givenNameAttribute ? { given_name_attribute: row.givenNameAttribute } : {}),
    ...(row.familyNameAttribute ? { family_name_attribute: row.familyNameAttribute } : {}),
    allowed_email_domains: [...row.allowedEmailDomains],
    enabled: row.enabled,
    sp_entity_id: samlEntityId(config, orgName),
    sp_acs_url: samlAcsUrl(config, orgName),
    created_at: seconds(row.createdAt),
    updated_at: seconds(row.updatedAt),
  };
}
