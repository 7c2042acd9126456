/**
 * SCIM Groups of one organization (RFC 7643 section 4.2). A group's displayName is an org role of its
 * members (scim-group-roles.ts); it is unique per organization, case-insensitively, and may not take the
 * reserved `service:` prefix, so a provider's group can never grant `service:org_admin`. Members are users
 * of the organization (RFC 7644 section 3.5.2: an unknown member is invalidValue).
 */
import { randomUUID } from 'node:crypto';
import { isUniqueViolation } from '../../storage/errors.ts';
import { recordEvent } from '../events/index.ts';
import { GROUP_SCHEMA, GROUP_VIEW, canonicalResource } from './scim-attributes.ts';
import { ScimError } from './scim-errors.ts';
import { ScimGroup, ScimUser, type ScimGroupRow } from './scim.entity.ts';
import { changeRoles, memberIdsAmong } from './scim-group-roles.ts';
import { claimNextVersion, etagOf, iso, type ScimResource, type ScimScope } from './scim-scope.ts';

/** Org role names (organizations.service.ts checkedRoles): non-empty, no comma, at most 100 characters. */
const MAX_ROLE_LENGTH = 100;

export function toScimGroup(scope: ScimScope, row: ScimGroupRow): ScimResource {
  return {
    schemas: [GROUP_SCHEMA],
    id: row.id,
    ...(row.externalId ? { externalId: row.externalId } : {}),
    displayName: row.displayName,
    // A list page that drops members does not read them (scim-list-sources.ts).
    members: (row.members ?? []).map((id) => ({ value: id, $ref: `${scope.baseUrl}Users/${id}`, type: 'User' })),
    meta: {
      resourceType: 'Group',
      created: iso(row.createdAt),
      lastModified: iso(row.updatedAt),
      location: `${scope.baseUrl}Groups/${row.id}`,
      version: etagOf(row.version),
    },
  };
}

export function writableGroup(row: ScimGroupRow): ScimResource {
  return {
    displayName: row.displayName,
    ...(row.externalId ? { externalId: row.externalId } : {}),
    members: row.members.map((id) => ({ value: id })),
  };
}

function groupEvent(row: ScimGroupRow): Record<string, unknown> {
  return { group: { id: row.id, org_id: row.orgId, display_name: row.displayName, external_id: row.externalId ?? undefined } };
}

interface GroupFields {
  displayName: string;
  externalId: string | null;
  members: string[];
}

/**
 * `current`: the members the group holds now. One of them who has since left the organization (removed by
 * an org-admin, or the account deleted) is dropped quietly, so that the group's next PATCH does not fail on
 * a member the provider never sent; a new member must be a user of the organization.
 */
async function groupFields(scope: ScimScope, body: unknown, current: readonly string[] = []): Promise<GroupFields> {
  const resource = canonicalResource(GROUP_VIEW, body);
  const displayName = typeof resource.displayName === 'string' ? resource.displayName.trim() : '';
  if (!displayName) throw ScimError.badRequest('invalidValue', 'displayName is required');
  if (displayName.length > MAX_ROLE_LENGTH || displayName.includes(',')) {
    throw ScimError.badRequest('invalidValue', `displayName names an org role: at most ${MAX_ROLE_LENGTH} characters, no commas`);
  }
  if (displayName.toLowerCase().startsWith('service:')) throw ScimError.badRequest('invalidValue', 'displayName: the service: prefix is reserved for roles of this server');
  const values = ((resource.members as Array<Record<string, unknown>> | undefined) ?? []).map((m) => m.value);
  if (values.some((v) => typeof v !== 'string' || !v)) throw ScimError.badRequest('invalidValue', 'members: each member needs a value (a user id)');
  const wanted = [...new Set(values as string[])];
  const known = await memberIdsAmong(scope.em, scope.org.id, wanted);
  // A provisioned user the provider set inactive is out of the organization (scim-users.service.ts) but keeps its groups.
  const inactive = wanted.filter((id) => !known.has(id));
  for (let i = 0; i < inactive.length; i += 500) {
    const links = await scope.em.find(ScimUser, { orgId: scope.org.id, active: false, userId: { $in: inactive.slice(i, i + 500) } }, { fields: ['userId'] });
    for (const link of links) known.add(link.userId);
  }
  const unknown = wanted.find((id) => !known.has(id) && !current.includes(id));
  if (unknown) throw ScimError.badRequest('invalidValue', `members: ${JSON.stringify(unknown)} is not a user of this organization`);
  const members = wanted.filter((id) => known.has(id));
  return { displayName, externalId: typeof resource.externalId === 'string' ? resource.externalId : null, members };
}

async function assertNameFree(scope: ScimScope, key: string, exceptId?: string): Promise<void> {
  const taken = await scope.em.findOne(ScimGroup, { orgId: scope.org.id, displayNameKey: key }, { fields: ['id'] });
  if (taken && taken.id !== exceptId) throw ScimError.conflict('a group with this displayName already exists in this organization');
}

async function flushUnique(scope: ScimScope): Promise<void> {
  try {
    await scope.em.flush();
  } catch (err) {
    if (isUniqueViolation(err)) throw ScimError.conflict('a group with this displayName already exists in this organization');
    throw err;
  }
}

export async function createScimGroup(scope: ScimScope, body: unknown): Promise<ScimGroupRow> {
  const fields = await groupFields(scope, body);
  const key = fields.displayName.toLowerCase();
  await assertNameFree(scope, key);
  const { em, deps } = scope;
  const now = deps.clock.now();
  const row = em.create(ScimGroup, { id: randomUUID(), orgId: scope.org.id, displayName: fields.displayName, displayNameKey: key, externalId: fields.externalId, members: fields.members, version: 1, createdAt: now, updatedAt: now });
  em.persist(row);
  await changeRoles(em, now, scope.org.id, { add: { role: fields.displayName, userIds: fields.members } });
  await flushUnique(scope);
  recordEvent(em, 'group.created', groupEvent(row), deps.clock);
  return row;
}

export async function findScimGroup(scope: ScimScope, id: string): Promise<ScimGroupRow> {
  const row = await scope.em.findOne(ScimGroup, { orgId: scope.org.id, id });
  if (!row) throw ScimError.notFound(`Group ${id} not found`);
  return row;
}

/** PUT and the result of a PATCH. Roles follow: leavers lose it, joiners gain it, a rename renames it. */
export async function replaceScimGroup(scope: ScimScope, row: ScimGroupRow, body: unknown): Promise<ScimGroupRow> {
  const fields = await groupFields(scope, body, row.members);
  const key = fields.displayName.toLowerCase();
  if (key !== row.displayNameKey) await assertNameFree(scope, key, row.id);
  const { em, deps } = scope;
  const now = deps.clock.now();
  const renamed = fields.displayName !== row.displayName;
  const before = new Set(row.members);
  const after = new Set(fields.members);
  // A rename moves every remaining member from the old role to the new one.
  const leaving = renamed ? row.members : row.members.filter((id) => !after.has(id));
  const joining = renamed ? fields.members : fields.members.filter((id) => !before.has(id));
  await changeRoles(em, now, scope.org.id, { remove: { role: row.displayName, userIds: leaving }, add: { role: fields.displayName, userIds: joining } });
  row.displayName = fields.displayName;
  row.displayNameKey = key;
  row.externalId = fields.externalId;
  row.members = fields.members;
  await claimNextVersion(em, ScimGroup, row);
  row.updatedAt = now;
  await flushUnique(scope);
  recordEvent(em, 'group.updated', groupEvent(row), deps.clock);
  return row;
}

export async function deleteScimGroup(scope: ScimScope, row: ScimGroupRow): Promise<void> {
  const { em, deps } = scope;
  await claimNextVersion(em, ScimGroup, row);
  await changeRoles(em, deps.clock.now(), scope.org.id, { remove: { role: row.displayName, userIds: row.members } });
  const event = groupEvent(row);
  em.remove(row);
  await em.flush();
  recordEvent(em, 'group.deleted', event, deps.clock);
}
