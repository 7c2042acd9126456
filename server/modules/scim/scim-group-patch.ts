/**
 * PATCH of a group (RFC 7644 section 3.5.2). The member changes providers send to large groups run on the
 * member index without reading the list (scim-group-members.ts): an `add` of `members` with the members as its
 * value (both providers), a `remove` of `members` with the members to remove as its value (Entra ID), and a
 * `remove` of `members[value eq "..."]` (Okta). A patch made only of those is applied as the net change of each
 * named member, in order. Any other operation (a rename, `replace` of `members`, a remove of every member, a
 * path-less value) is applied to the whole representation and stored as a PUT (scim-groups.service.ts), as
 * before.
 *
 * The answer: RFC 7644 section 3.5.2 lets the server answer 200 with the entire resource (subject to
 * `attributes`, section 3.9) or 204 No Content, and requires 200 when `attributes` is given. A group whose
 * members are shown is answered whole up to ANSWERED_MEMBERS members; beyond that with 204 and its ETag,
 * unless `attributes` was given: then the whole list is read.
 */
import { GROUP_VIEW, MAX_GROUP_MEMBERS } from './scim-attributes.ts';
import { ScimError } from './scim-errors.ts';
import { changeRoles } from './scim-group-roles.ts';
import { deleteMembers, hasMoreMembersThan, insertMembers, memberIdsOf, membersAmong } from './scim-group-members.ts';
import { admissibleMembers, groupEvent, memberValues, replaceScimGroup, showsMembers, writableGroup, type ScimGroupRecord } from './scim-groups.service.ts';
import { applyPatch, type PatchOperation } from './scim-patch.ts';
import type { ListQuery } from './scim-query.ts';
import { ScimGroup } from './scim.entity.ts';
import { claimNextVersion, type ScimScope } from './scim-scope.ts';
import { recordEvent } from '../events/index.ts';

/** The most members a PATCH answer lists; a larger group is answered with 204 (see above). */
export const ANSWERED_MEMBERS = 1000;

const MEMBER_FILTER = /^\s*members\s*\[\s*value\s+eq\s+("(?:[^"\\]|\\.)*")\s*\]\s*$/i;

/** One member change: the members it names and whether they join (true) or leave. */
interface MemberChange {
  readonly ids: string[];
  readonly join: boolean;
}

/** The member objects of a value; a bare id stands for `{ value: id }`, as canonicalResource reads it. */
function valueObjects(value: unknown): Array<Record<string, unknown>> {
  const items = (Array.isArray(value) ? value : [value]).map((item) => (typeof item === 'string' ? { value: item } : item));
  if (items.length > MAX_GROUP_MEMBERS) throw ScimError.badRequest('invalidValue', `members: at most ${MAX_GROUP_MEMBERS} values`);
  if (items.some((item) => !item || typeof item !== 'object' || Array.isArray(item))) throw ScimError.badRequest('invalidValue', 'members: each member must be an object with a value');
  return items as Array<Record<string, unknown>>;
}

/** The member change an operation makes, or undefined when it is not one the index can apply alone. */
function memberChange(operation: PatchOperation): MemberChange | undefined {
  const path = operation.path?.trim();
  if (!path) return undefined;
  if (path.toLowerCase() === 'members') {
    if (operation.op === 'add') return { ids: memberValues(valueObjects(operation.value)), join: true };
    if (operation.op === 'remove' && operation.value !== undefined && operation.value !== null) return { ids: memberValues(valueObjects(operation.value)), join: false };
    return undefined;
  }
  const filtered = operation.op === 'remove' ? MEMBER_FILTER.exec(path) : null;
  if (!filtered) return undefined;
  const id = JSON.parse(filtered[1]!) as string;
  return id ? { ids: [id], join: false } : undefined;
}

async function applyMemberChanges(scope: ScimScope, record: ScimGroupRecord, changes: readonly MemberChange[]): Promise<void> {
  const { em, deps } = scope;
  const { group } = record;
  // First, so that a concurrent change of the group waits for this one (or this one is retried, scim-scope.ts).
  await claimNextVersion(em, ScimGroup, group);
  const wanted = new Map<string, boolean>();
  for (const change of changes) for (const id of change.ids) wanted.set(id, change.join);
  const named = [...wanted.keys()];
  const held = await membersAmong(em, group.id, named);
  const leaving = named.filter((id) => !wanted.get(id) && held.has(id));
  const joining = await admissibleMembers(scope, named.filter((id) => wanted.get(id) && !held.has(id)));
  const now = deps.clock.now();
  await changeRoles(em, now, scope.org.id, { remove: { role: group.displayName, userIds: leaving }, add: { role: group.displayName, userIds: joining } });
  group.updatedAt = now;
  await em.flush();
  await deleteMembers(em, group.id, leaving);
  await insertMembers(em, scope.org.id, group.id, joining);
  recordEvent(em, 'group.updated', groupEvent(group), deps.clock);
}

/** The members the answer shows: none when the query drops them, undefined (answer 204) when too many. */
async function answeredMembers(scope: ScimScope, record: ScimGroupRecord, query: ListQuery): Promise<ScimGroupRecord> {
  if (!showsMembers(query)) return { group: record.group };
  if (query.attributes) return { group: record.group, members: record.members ?? (await memberIdsOf(scope.em, record.group.id)) };
  if (record.members) return record.members.length <= ANSWERED_MEMBERS ? record : { group: record.group };
  if (await hasMoreMembersThan(scope.em, record.group.id, ANSWERED_MEMBERS)) return { group: record.group };
  return { group: record.group, members: await memberIdsOf(scope.em, record.group.id) };
}

/** Applies the operations; the record answers them, with `members` undefined where the answer is 204. */
export async function patchScimGroup(scope: ScimScope, record: ScimGroupRecord, operations: readonly PatchOperation[], query: ListQuery): Promise<ScimGroupRecord> {
  const changes = operations.map(memberChange);
  if (changes.every((c) => c !== undefined)) {
    await applyMemberChanges(scope, record, changes as MemberChange[]);
    return answeredMembers(scope, record, query);
  }
  const members = record.members ?? (await memberIdsOf(scope.em, record.group.id));
  const patched = await applyPatch(GROUP_VIEW, writableGroup(record.group, members), operations);
  return answeredMembers(scope, await replaceScimGroup(scope, { group: record.group, members }, patched), query);
}

/** Whether the answer to a PATCH that produced `record` is 204: the members it would show were not read. */
export function patchAnsweredEmpty(record: ScimGroupRecord, query: ListQuery): boolean {
  return record.members === undefined && showsMembers(query);
}
