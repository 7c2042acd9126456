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
import { deleteAllMembers, deleteMembers, insertMembers, memberIdsOf, membersAmong } from './scim-group-members.ts';
import { resolveAttrPath } from './scim-paths.ts';
import type { ListQuery } from './scim-query.ts';
import { claimNextVersion, etagOf, iso, type ScimResource, type ScimScope } from './scim-scope.ts';

/** Org role names (organizations.service.ts checkedRoles): non-empty, no comma, at most 100 characters. */
const MAX_ROLE_LENGTH = 100;

/** A group and, when they were read, its member ids (scim-group-members.ts). */
export interface ScimGroupRecord {
  readonly group: ScimGroupRow;
  /** Undefined: not read, and the representation leaves `members` out. */
  readonly members?: readonly string[];
}

export function toScimGroup(scope: ScimScope, { group, members }: ScimGroupRecord): ScimResource {
  return {
    schemas: [GROUP_SCHEMA],
    id: group.id,
    ...(group.externalId ? { externalId: group.externalId } : {}),
    displayName: group.displayName,
    ...(members ? { members: members.map((id) => ({ value: id, $ref: `${scope.baseUrl}Users/${id}`, type: 'User' })) } : {}),
    meta: {
      resourceType: 'Group',
      created: iso(group.createdAt),
      lastModified: iso(group.updatedAt),
      location: `${scope.baseUrl}Groups/${group.id}`,
      version: etagOf(group.version),
    },
  };
}

/** Whether a group projected by `query` shows members (RFC 7644 section 3.9); absent query: every attribute. */
export function showsMembers(query: Pick<ListQuery, 'attributes' | 'excludedAttributes'> | undefined): boolean {
  if (!query) return true;
  // An unknown name is refused by the projection (scim-query.ts project), as before.
  const names = (text: string | undefined) => (text ?? '').split(',').map((n) => n.trim()).filter(Boolean).flatMap((n) => {
    try {
      return [resolveAttrPath(GROUP_VIEW, n, 'invalidPath')];
    } catch {
      return [];
    }
  });
  const kept = names(query.attributes);
  if (kept.length) return kept.some((p) => p.attribute.name === 'members');
  return !names(query.excludedAttributes).some((p) => p.attribute.name === 'members' && !p.sub);
}

/** The representation PATCH works on when it needs the whole member list (scim-group-patch.ts). */
export function writableGroup(group: ScimGroupRow, members: readonly string[]): ScimResource {
  return {
    displayName: group.displayName,
    ...(group.externalId ? { externalId: group.externalId } : {}),
    members: members.map((id) => ({ value: id })),
  };
}

export function groupEvent(row: ScimGroupRow): Record<string, unknown> {
  return { group: { id: row.id, org_id: row.orgId, display_name: row.displayName, external_id: row.externalId ?? undefined } };
}

interface GroupFields {
  displayName: string;
  externalId: string | null;
  members: string[];
}

/**
 * The ids among `wanted` that may be members of the group: users of the organization, or provisioned users
 * the provider set inactive (out of the organization, scim-users.service.ts, but they keep their groups). A
 * member the group holds already (`groupId`) who has since left the organization (removed by an org-admin,
 * or the account deleted) is dropped quietly, so that the group's next write does not fail on a member the
 * provider never sent; any other id is invalidValue (RFC 7644 section 3.5.2).
 */
export async function admissibleMembers(scope: ScimScope, wanted: readonly string[], groupId?: string): Promise<string[]> {
  const known = await memberIdsAmong(scope.em, scope.org.id, wanted);
  const inactive = wanted.filter((id) => !known.has(id));
  for (let i = 0; i < inactive.length; i += 500) {
    const links = await scope.em.find(ScimUser, { orgId: scope.org.id, active: false, userId: { $in: inactive.slice(i, i + 500) } }, { fields: ['userId'] });
    for (const link of links) known.add(link.userId);
  }
  const unknown = wanted.filter((id) => !known.has(id));
  const current = groupId && unknown.length ? await membersAmong(scope.em, groupId, unknown) : new Set<string>();
  const stranger = unknown.find((id) => !current.has(id));
  if (stranger) throw ScimError.badRequest('invalidValue', `members: ${JSON.stringify(stranger)} is not a user of this organization`);
  return wanted.filter((id) => known.has(id));
}

/** The member ids a PATCH value or a member path names, each a non-empty string. */
export function memberValues(items: ReadonlyArray<Record<string, unknown>>): string[] {
  const values = items.map((m) => m.value);
  if (values.some((v) => typeof v !== 'string' || !v)) throw ScimError.badRequest('invalidValue', 'members: each member needs a value (a user id)');
  return [...new Set(values as string[])];
}

async function groupFields(scope: ScimScope, body: unknown, groupId?: string): Promise<GroupFields> {
  const resource = canonicalResource(GROUP_VIEW, body);
  const displayName = typeof resource.displayName === 'string' ? resource.displayName.trim() : '';
  if (!displayName) throw ScimError.badRequest('invalidValue', 'displayName is required');
  if (displayName.length > MAX_ROLE_LENGTH || displayName.includes(',')) {
    throw ScimError.badRequest('invalidValue', `displayName names an org role: at most ${MAX_ROLE_LENGTH} characters, no commas`);
  }
  if (displayName.toLowerCase().startsWith('service:')) throw ScimError.badRequest('invalidValue', 'displayName: the service: prefix is reserved for roles of this server');
  const wanted = memberValues((resource.members as Array<Record<string, unknown>> | undefined) ?? []);
  const members = await admissibleMembers(scope, wanted, groupId);
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

export async function createScimGroup(scope: ScimScope, body: unknown): Promise<ScimGroupRecord> {
  const fields = await groupFields(scope, body);
  const key = fields.displayName.toLowerCase();
  await assertNameFree(scope, key);
  const { em, deps } = scope;
  const now = deps.clock.now();
  const group = em.create(ScimGroup, { id: randomUUID(), orgId: scope.org.id, displayName: fields.displayName, displayNameKey: key, externalId: fields.externalId, legacyMembers: [], version: 1, createdAt: now, updatedAt: now });
  em.persist(group);
  await changeRoles(em, now, scope.org.id, { add: { role: fields.displayName, userIds: fields.members } });
  await flushUnique(scope);
  await insertMembers(em, scope.org.id, group.id, fields.members);
  recordEvent(em, 'group.created', groupEvent(group), deps.clock);
  return { group, members: fields.members };
}

/** The group, with its members when `query` shows them (a read without `excludedAttributes=members`). */
export async function findScimGroup(scope: ScimScope, id: string, query?: ListQuery): Promise<ScimGroupRecord> {
  const group = await scope.em.findOne(ScimGroup, { orgId: scope.org.id, id });
  if (!group) throw ScimError.notFound(`Group ${id} not found`);
  return query && showsMembers(query) ? { group, members: await memberIdsOf(scope.em, group.id) } : { group };
}

/** PUT and the result of a PATCH that needs the whole list. Roles follow: leavers lose it, joiners gain it, a rename renames it. */
export async function replaceScimGroup(scope: ScimScope, record: ScimGroupRecord, body: unknown): Promise<ScimGroupRecord> {
  const { group } = record;
  const fields = await groupFields(scope, body, group.id);
  const key = fields.displayName.toLowerCase();
  if (key !== group.displayNameKey) await assertNameFree(scope, key, group.id);
  const { em, deps } = scope;
  const now = deps.clock.now();
  const current = record.members ?? (await memberIdsOf(em, group.id));
  const renamed = fields.displayName !== group.displayName;
  const before = new Set(current);
  const after = new Set(fields.members);
  const left = current.filter((id) => !after.has(id));
  const joined = fields.members.filter((id) => !before.has(id));
  // A rename moves every remaining member from the old role to the new one.
  await changeRoles(em, now, scope.org.id, { remove: { role: group.displayName, userIds: renamed ? current : left }, add: { role: fields.displayName, userIds: renamed ? fields.members : joined } });
  await claimNextVersion(em, ScimGroup, group);
  group.displayName = fields.displayName;
  group.displayNameKey = key;
  group.externalId = fields.externalId;
  group.updatedAt = now;
  await flushUnique(scope);
  await deleteMembers(em, group.id, left);
  await insertMembers(em, scope.org.id, group.id, joined);
  recordEvent(em, 'group.updated', groupEvent(group), deps.clock);
  return { group, members: fields.members };
}

export async function deleteScimGroup(scope: ScimScope, { group }: ScimGroupRecord): Promise<void> {
  const { em, deps } = scope;
  await claimNextVersion(em, ScimGroup, group);
  await changeRoles(em, deps.clock.now(), scope.org.id, { remove: { role: group.displayName, userIds: await memberIdsOf(em, group.id) } });
  const event = groupEvent(group);
  await deleteAllMembers(em, group.id);
  em.remove(group);
  await em.flush();
  recordEvent(em, 'group.deleted', event, deps.clock);
}
