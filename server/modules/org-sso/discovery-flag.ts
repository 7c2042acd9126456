/**
 * Meta's `is_org_discovery_enabled` (docs/api-overview.md#resources-and-fields, "Meta"): true when home-realm discovery can route
 * someone, that is when an enabled organization holds a verified domain and an enabled OIDC or SAML
 * connection.
 * Meta is read on every page load of every client, so the answer is kept for a few seconds per database
 * and process rather than costing three queries each time. A connection change on this instance forgets it
 * at once; a domain or organization change, or a change made on another instance, shows within
 * ANSWER_TTL_MS (the same bound as the email templates' cache).
 */
import type { EntityManager } from '@mikro-orm/core';
import type { Deps } from '../../kernel/deps.ts';
import { Organization } from '../organizations/index.ts';
import { OrgDomain } from '../org-domains/index.ts';
import { OrgOidcConnection } from './org-sso.entities.ts';
import { OrgSamlConnection } from './saml-connection.entities.ts';

export const ANSWER_TTL_MS = 5_000;

const answers = new WeakMap<object, { at: number; value: Promise<boolean> }>();

async function computeDiscoveryEnabled(em: EntityManager): Promise<boolean> {
  const connections = [
    ...await em.find(OrgOidcConnection, { enabled: true }, { fields: ['orgId'] }),
    ...await em.find(OrgSamlConnection, { enabled: true }, { fields: ['orgId'] }),
  ];
  if (connections.length === 0) return false;
  const orgs = await em.find(Organization, { id: { $in: connections.map((c) => c.orgId) }, enabled: true }, { fields: ['id'] });
  if (orgs.length === 0) return false;
  const domain = await em.findOne(OrgDomain, { orgId: { $in: orgs.map((o) => o.id) }, state: 'verified' }, { fields: ['id'] });
  return domain !== null;
}

/** Keyed by the Storage object, so each server instance (and each test server) has its own answer. */
export function orgDiscoveryEnabled(deps: Pick<Deps, 'storage'>): Promise<boolean> {
  const cached = answers.get(deps.storage);
  const now = Date.now();
  if (cached && now - cached.at < ANSWER_TTL_MS) return cached.value;
  const value = computeDiscoveryEnabled(deps.storage.fork());
  answers.set(deps.storage, { at: now, value });
  // A failed read is not kept: the next meta call asks again.
  value.catch(() => answers.delete(deps.storage));
  return value;
}

/** After a connection change on this instance: the next meta call reads the database again. */
export function forgetDiscoveryAnswer(deps: Pick<Deps, 'storage'>): void {
  answers.delete(deps.storage);
}
