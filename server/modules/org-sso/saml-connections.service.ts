/**
 * Storage of organization SAML connections
 * (docs/api-overview.md#resources-and-fields, "Upstream org connections", docs/operations.md, "Org SSO
 * connections"): one per organization (the unique index on orgId is the last word under
 * concurrency), the IdP certificates checked when given (saml-certificates.ts) and replaced only when new
 * ones are given.
 */
import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/core';
import type { Deps } from '../../kernel/deps.ts';
import type { Static } from '../../ops/schema.ts';
import { AppError } from '../../kernel/errors.ts';
import { isUniqueViolation } from '../../storage/errors.ts';
import { OrgSamlConnection, type OrgSamlConnectionRow } from './saml-connection.entities.ts';
import { OrgSsoIdentity } from './org-sso.entities.ts';
import type { CreateOrgSamlConnectionRequest, UpdateOrgSamlConnectionRequest } from './saml-connection.schema.ts';
import { checkedCertificates } from './saml-certificates.ts';
import { checkedDomains } from './connections.service.ts';

const ALREADY = 'this organization already has a SAML connection: update it instead';
/** Printable, no spaces: an entityID is a URI (SAML 2.0 Core 8.3.6) and a name is an XML attribute value. */
const PRINTABLE = /^[\x21-\x7e]+$/;

function checkedEntityId(value: string): string {
  const trimmed = value.trim();
  if (!PRINTABLE.test(trimmed)) throw AppError.invalid('idp_entity_id: a URI without spaces');
  return trimmed;
}

/**
 * Only the browser visits the IdP's SSO address (the server never connects to it), so the SSRF rules of
 * OIDC issuers do not apply; https keeps the AuthnRequest and the IdP's login page out of clear text
 * (http only with --org-sso-allow-private-addresses, for tests and closed networks). The address may carry
 * a query (some IdPs name the tenant in it); the AuthnRequest's parameters are added to it.
 */
function checkedSsoUrl(value: string, allowHttp: boolean): string {
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    throw AppError.invalid('idp_sso_url: not a URL');
  }
  if (url.protocol !== 'https:' && !(allowHttp && url.protocol === 'http:')) throw AppError.invalid('idp_sso_url: must be https');
  if (url.username || url.password) throw AppError.invalid('idp_sso_url: must not hold credentials');
  if (url.hash) throw AppError.invalid('idp_sso_url: must not have a fragment');
  if (url.searchParams.has('SAMLRequest') || url.searchParams.has('RelayState')) throw AppError.invalid('idp_sso_url: must not carry SAMLRequest or RelayState');
  return url.href;
}

function checkedAttribute(value: string | undefined, field: string): string | null {
  if (value === undefined) return null;
  const trimmed = value.trim();
  if (!PRINTABLE.test(trimmed)) throw AppError.invalid(`${field}: an attribute name without spaces`);
  return trimmed;
}

async function flushUnique(em: EntityManager): Promise<void> {
  try {
    await em.flush();
  } catch (err) {
    if (isUniqueViolation(err)) throw new AppError('already_exists', ALREADY);
    throw err;
  }
}

export async function createSamlConnection(em: EntityManager, deps: Pick<Deps, 'config' | 'clock'>, input: Static<typeof CreateOrgSamlConnectionRequest>): Promise<OrgSamlConnectionRow> {
  const now = deps.clock.now();
  const fields = {
    idpEntityId: checkedEntityId(input.idp_entity_id),
    idpSsoUrl: checkedSsoUrl(input.idp_sso_url, deps.config.orgSsoAllowPrivateAddresses),
    idpCertificates: checkedCertificates(input.idp_certificate, now),
    emailAttribute: checkedAttribute(input.email_attribute, 'email_attribute'),
    givenNameAttribute: checkedAttribute(input.given_name_attribute, 'given_name_attribute'),
    familyNameAttribute: checkedAttribute(input.family_name_attribute, 'family_name_attribute'),
    allowedEmailDomains: checkedDomains(input.allowed_email_domains),
  };
  if (await em.findOne(OrgSamlConnection, { orgId: input.org_id }, { fields: ['id'] })) throw new AppError('already_exists', ALREADY);
  const row = em.create(OrgSamlConnection, { id: randomUUID(), orgId: input.org_id, ...fields, enabled: input.enabled ?? true, createdAt: now, updatedAt: now });
  em.persist(row);
  await flushUnique(em);
  return row;
}

/**
 * Omitted fields stay. An empty allowed_email_domains list reads as omitted (gRPC cannot tell them apart),
 * as for OIDC connections.
 */
export async function updateSamlConnection(em: EntityManager, deps: Pick<Deps, 'config' | 'clock'>, row: OrgSamlConnectionRow, input: Static<typeof UpdateOrgSamlConnectionRequest>): Promise<OrgSamlConnectionRow> {
  const now = deps.clock.now();
  if (input.idp_entity_id !== undefined) {
    const entityId = checkedEntityId(input.idp_entity_id);
    // A NameID means something only under the IdP that issued it (SAML 2.0 Core 8.3.7: persistent
    // identifiers are specific to an IdP and SP pair): links made under the old IdP would let the new one
    // sign in as those accounts, so they go; people come back through the linking rule (sign-in.ts).
    if (entityId !== row.idpEntityId) await em.nativeDelete(OrgSsoIdentity, { connectionId: row.id });
    row.idpEntityId = entityId;
  }
  if (input.idp_sso_url !== undefined) row.idpSsoUrl = checkedSsoUrl(input.idp_sso_url, deps.config.orgSsoAllowPrivateAddresses);
  // docs/api-overview.md#resources-and-fields: a new certificate replaces the stored ones; none given keeps them.
  if (input.idp_certificate !== undefined) row.idpCertificates = checkedCertificates(input.idp_certificate, now);
  if (input.email_attribute !== undefined) row.emailAttribute = checkedAttribute(input.email_attribute, 'email_attribute');
  if (input.given_name_attribute !== undefined) row.givenNameAttribute = checkedAttribute(input.given_name_attribute, 'given_name_attribute');
  if (input.family_name_attribute !== undefined) row.familyNameAttribute = checkedAttribute(input.family_name_attribute, 'family_name_attribute');
  if (input.allowed_email_domains !== undefined && input.allowed_email_domains.length > 0) row.allowedEmailDomains = checkedDomains(input.allowed_email_domains);
  if (input.enabled !== undefined) row.enabled = input.enabled;
  row.updatedAt = now;
  await em.flush();
  return row;
}

export function findSamlConnection(em: EntityManager, by: { id?: string; orgId?: string }): Promise<OrgSamlConnectionRow | null> {
  if (by.id) return em.findOne(OrgSamlConnection, { id: by.id });
  return em.findOne(OrgSamlConnection, { orgId: by.orgId! });
}
