/**
 * Storage of organization OIDC connections
 * (docs/api-overview.md#resources-and-fields, "Upstream org connections", docs/operations.md, "Org SSO
 * connections"): one per organization (the unique index on orgId is the last word under
 * concurrency), the client secret sealed at rest and replaced only when a new one is given.
 */
import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/core';
import type { Deps } from '../../kernel/deps.ts';
import type { Static } from '../../ops/schema.ts';
import { AppError } from '../../kernel/errors.ts';
import { isUniqueViolation } from '../../storage/errors.ts';
import { normaliseDomain } from '../org-domains/index.ts';
import { OrgOidcConnection, OrgSsoIdentity, type OrgOidcConnectionRow } from './org-sso.entities.ts';
import type { CreateOrgOidcConnectionRequest, UpdateOrgOidcConnectionRequest } from './org-sso.schema.ts';
import { checkedIssuer } from './upstream-address.ts';

export const DEFAULT_SSO_SCOPES: readonly string[] = ['openid', 'email', 'profile'];
const SCOPE_TOKEN = /^[\x21\x23-\x5b\x5d-\x7e]{1,128}$/; // RFC 6749 section 3.3 scope-token, bounded

function checkedScopes(scopes: readonly string[] | undefined): string[] {
  if (!scopes || scopes.length === 0) return [...DEFAULT_SSO_SCOPES];
  const unique = [...new Set(scopes.map((scope) => scope.trim()))];
  if (!unique.every((scope) => SCOPE_TOKEN.test(scope))) throw AppError.invalid('scopes: each scope is a printable word without spaces, quotes or backslashes');
  // OpenID Connect Core 3.1.2.1: without openid the IdP answers no ID token, and the ID token is our only proof.
  if (!unique.includes('openid')) throw AppError.invalid('scopes: must include openid');
  return unique;
}

export function checkedDomains(domains: readonly string[] | undefined): string[] {
  const normalised = (domains ?? []).map((domain) => {
    const name = normaliseDomain(domain);
    if (!name) throw AppError.invalid('allowed_email_domains: each entry is a domain such as example.com');
    return name;
  });
  return [...new Set(normalised)];
}

function checkedClientId(value: string): string {
  const trimmed = value.trim();
  if (!trimmed) throw AppError.invalid('client_id must not be blank');
  return trimmed;
}

async function flushUnique(em: EntityManager): Promise<void> {
  try {
    await em.flush();
  } catch (err) {
    if (isUniqueViolation(err)) throw new AppError('already_exists', 'this organization already has an OIDC connection: update it instead');
    throw err;
  }
}

export async function createConnection(em: EntityManager, deps: Pick<Deps, 'config' | 'sealer' | 'clock'>, input: Static<typeof CreateOrgOidcConnectionRequest>): Promise<OrgOidcConnectionRow> {
  const allowPrivate = deps.config.orgSsoAllowPrivateAddresses;
  const fields = {
    issuer: checkedIssuer(input.issuer, allowPrivate),
    clientId: checkedClientId(input.client_id),
    scopes: checkedScopes(input.scopes),
    allowedEmailDomains: checkedDomains(input.allowed_email_domains),
  };
  if (await em.findOne(OrgOidcConnection, { orgId: input.org_id }, { fields: ['id'] })) {
    throw new AppError('already_exists', 'this organization already has an OIDC connection: update it instead');
  }
  const row = em.create(OrgOidcConnection, {
    id: randomUUID(),
    orgId: input.org_id,
    ...fields,
    clientSecret: input.client_secret ? deps.sealer.seal(input.client_secret) : null,
    enabled: input.enabled ?? true,
    createdAt: deps.clock.now(),
    updatedAt: deps.clock.now(),
  });
  em.persist(row);
  await flushUnique(em);
  return row;
}

/**
 * Omitted fields stay. An empty allowed_email_domains list reads as omitted (gRPC cannot tell them apart),
 * so the restriction is lifted by deleting and creating the connection again.
 */
export async function updateConnection(em: EntityManager, deps: Pick<Deps, 'config' | 'sealer' | 'clock'>, row: OrgOidcConnectionRow, input: Static<typeof UpdateOrgOidcConnectionRequest>): Promise<OrgOidcConnectionRow> {
  if (input.issuer !== undefined) {
    const issuer = checkedIssuer(input.issuer, deps.config.orgSsoAllowPrivateAddresses);
    // OpenID Connect Core 5.7: a sub means something only under its issuer. Links made under the old IdP
    // would let the new one sign in as those accounts by reusing their subjects, so they go; people come
    // back through the linking rule (sign-in.ts).
    if (issuer !== row.issuer) await em.nativeDelete(OrgSsoIdentity, { connectionId: row.id });
    row.issuer = issuer;
  }
  if (input.client_id !== undefined) row.clientId = checkedClientId(input.client_id);
  // docs/api-overview.md#resources-and-fields: a new secret replaces the stored one; none given keeps it.
  if (input.client_secret) row.clientSecret = deps.sealer.seal(input.client_secret);
  if (input.scopes !== undefined && input.scopes.length > 0) row.scopes = checkedScopes(input.scopes);
  if (input.allowed_email_domains !== undefined && input.allowed_email_domains.length > 0) row.allowedEmailDomains = checkedDomains(input.allowed_email_domains);
  if (input.enabled !== undefined) row.enabled = input.enabled;
  row.updatedAt = deps.clock.now();
  await em.flush();
  return row;
}

export function findConnection(em: EntityManager, by: { id?: string; orgId?: string }): Promise<OrgOidcConnectionRow | null> {
  if (by.id) return em.findOne(OrgOidcConnection, { id: by.id });
  return em.findOne(OrgOidcConnection, { orgId: by.orgId! });
}
