/**
 * Wire shapes of the organization OIDC connection operations
 * (docs/operations.md, "Org SSO connections"; docs/api-overview.md#resources-and-fields: the client secret is never
 * returned, `has_client_secret` says whether one is held)
 * and of home-realm discovery. snake_case, timestamps in Unix seconds, as the other admin records.
 * New optional request fields go last in their object: gRPC field numbers follow the order.
 */
import { s, type Static } from '../../ops/schema.ts';
import type { OrgOidcConnectionRow } from './org-sso.entities.ts';

const id = s.string({ minLength: 1, maxLength: 64 });
const issuer = s.string({ minLength: 1, maxLength: 2048, description: 'https URL of the IdP; its /.well-known/openid-configuration is read' });
const clientId = s.string({ minLength: 1, maxLength: 255 });
const clientSecret = s.string({ minLength: 1, maxLength: 1024, description: 'stored encrypted, never returned' });
const scopes = s.list(s.string({ minLength: 1, maxLength: 128 }), { maxItems: 20 });
const domains = s.list(s.string({ minLength: 1, maxLength: 253 }), { maxItems: 50 });

export const OrgOidcConnectionSchema = s.object('OrgOidcConnection', {
  id: s.string(),
  org_id: s.string(),
  issuer: s.string(),
  client_id: s.string(),
  has_client_secret: s.boolean(),
  scopes: s.list(s.string()),
  allowed_email_domains: s.list(s.string()),
  enabled: s.boolean(),
  created_at: s.int64(),
  updated_at: s.int64(),
});

export const CreateOrgOidcConnectionRequest = s.object('CreateOrgOidcConnectionRequest', {
  org_id: id,
  issuer,
  client_id: clientId,
  client_secret: s.optional(clientSecret),
  /** Default openid email profile; must hold openid. */
  scopes: s.optional(scopes),
  /** Empty: any address the IdP asserts. */
  allowed_email_domains: s.optional(domains),
  enabled: s.optional(s.boolean()),
});

/** Omitted fields stay; a new client_secret replaces the stored one, an omitted one keeps it (docs/api-overview.md#resources-and-fields). */
export const UpdateOrgOidcConnectionRequest = s.object('UpdateOrgOidcConnectionRequest', {
  id,
  issuer: s.optional(issuer),
  client_id: s.optional(clientId),
  client_secret: s.optional(clientSecret),
  scopes: s.optional(scopes),
  allowed_email_domains: s.optional(domains),
  enabled: s.optional(s.boolean()),
});

export const DeleteOrgOidcConnectionRequest = s.object('DeleteOrgOidcConnectionRequest', { id });

/** Exactly one of `id` and `org_id` (docs/operations.md). */
export const OrgOidcConnectionRequest = s.object('OrgOidcConnectionRequest', {
  id: s.optional(id),
  org_id: s.optional(id),
});

export const OrgDiscoveryRequest = s.object('OrgDiscoveryRequest', {
  email: s.string({ minLength: 1, maxLength: 320 }),
});

/** Domain-level facts only: never whether an account exists for the address. */
export const OrgDiscoveryResponse = s.object('OrgDiscoveryResponse', {
  sso: s.boolean(),
  organization: s.optional(s.string({ description: 'the organization name (slug)' })),
  display_name: s.optional(s.string()),
  sso_url: s.optional(s.string({ description: '<--url>/sso/<organization>/start' })),
});

const seconds = (date: Date): number => Math.floor(date.getTime() / 1000);

export function toPublicConnection(row: OrgOidcConnectionRow): Static<typeof OrgOidcConnectionSchema> {
  return {
    id: row.id,
    org_id: row.orgId,
    issuer: row.issuer,
    client_id: row.clientId,
    has_client_secret: Boolean(row.clientSecret),
    scopes: [...row.scopes],
    allowed_email_domains: [...row.allowedEmailDomains],
    enabled: row.enabled,
    created_at: seconds(row.createdAt),
    updated_at: seconds(row.updatedAt),
  };
}
