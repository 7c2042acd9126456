/**
 * Storage of organizations and their members (docs/operations.md, "Organizations"). Names are unique
 * slugs, checked here before the unique index (the index is the last word under concurrency). Deleting an
 * organization removes every record scoped to it: the rows of each entity that has an `orgId` property.
 */
import { randomUUID } from 'node:crypto';
import type { EntityManager, FilterQuery } from '@mikro-orm/core';
import type { Static } from '../../ops/schema.ts';
import { paginate, type Page, type PaginationRequest } from '../../ops/pagination.ts';
import { AppError } from '../../kernel/errors.ts';
import { defineHook } from '../../kernel/hooks.ts';
import { isUniqueViolation } from '../../storage/errors.ts';
import { User, type UserRow } from '../users/index.ts';
import type { Caller } from '../../kernel/context.ts';
import { ADMISSION_REFUSED, assertMayAdmit } from './member-admission.ts';
import { OrgMember, Organization, type OrgMemberRow, type OrganizationRow } from './organization.entity.ts';
import type { CreateOrganizationRequest, UpdateOrganizationRequest } from './organizations.schema.ts';

/** RFC 3986 unreserved and DNS-label-like: lowercase letters, digits, inner hyphens, at most 63. */
const SLUG = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

export function checkedSlug(name: string): string {
  if (!SLUG.test(name)) {
    throw AppError.invalid('name: use lowercase letters, digits and hyphens (not first or last), at most 63 characters');
  }
  return name;
}

function checkedRoles(roles: readonly string[] | undefined): string[] {
  const unique = [...new Set((roles ?? []).map((role) => role.trim()))];
  for (const role of unique) {
    if (!role || role.includes(',')) throw AppError.invalid('roles: each role is a non-empty name without commas');
  }
  return unique;
}

async function assertNameFree(em: EntityManager, name: string, exceptId?: string): Promise<void> {
  const taken = await em.findOne(Organization, { name }, { fields: ['id'] });
  if (taken && taken.id !== exceptId) throw new AppError('already_exists', 'an organization with this name already exists');
}

async function flushUnique(em: EntityManager): Promise<void> {
  try {
    await em.flush();
  } catch (err) {
    if (isUniqueViolation(err)) throw new AppError('already_exists', 'an organization with this name already exists');
    throw err;
  }
}

export async function createOrganization(em: EntityManager, now: Date, input: Static<typeof CreateOrganizationRequest>): Promise<OrganizationRow> {
  const name = checkedSlug(input.name);
  await assertNameFree(em, name);
  const row = em.create(Organization, {
    id: randomUUID(),
    name,
    displayName: input.display_name?.trim() || name,
    enabled: input.enabled ?? true,
    createdAt: now,
    updatedAt: now,
  });
  em.persist(row);
  await flushUnique(em);
  return row;
}

export async function findOrganization(em: EntityManager, by: { id?: string; name?: string }): Promise<OrganizationRow | null> {
  if (by.id) return em.findOne(Organization, { id: by.id });
  if (by.name) return em.findOne(Organization, { name: by.name });
  return null;
}

export async function updateOrganization(em: EntityManager, now: Date, row: OrganizationRow, input: Static<typeof UpdateOrganizationRequest>): Promise<OrganizationRow> {
  if (input.name !== undefined && input.name !== row.name) {
    const name = checkedSlug(input.name);
    await assertNameFree(em, name, row.id);
    row.name = name;
  }
  if (input.display_name !== undefined) row.displayName = input.display_name.trim() || row.name;
  if (input.enabled !== undefined) row.enabled = input.enabled;
  row.updatedAt = now;
  await flushUnique(em);
  return row;
}

/** Every entity with an `orgId` property holds records scoped to one organization. */
export async function deleteOrganization(em: EntityManager, org: OrganizationRow): Promise<void> {
  for (const meta of em.getMetadata().getAll().values()) {
    if (meta.properties.orgId && meta.class) await em.nativeDelete(meta.class, { orgId: org.id });
  }
  await em.nativeDelete(Organization, { id: org.id });
}

export function listOrganizations(em: EntityManager, pagination: Static<typeof PaginationRequest> | undefined, query?: string): Promise<Page<OrganizationRow>> {
  const text = query?.trim();
  const where: FilterQuery<OrganizationRow> = text
    ? { $or: [{ name: { $like: `%${escapeLike(text.toLowerCase())}%` } }, { displayName: { $like: `%${escapeLike(text)}%` } }] }
    : {};
  return paginate(em, Organization, where, pagination, { createdAt: 'desc', id: 'desc' });
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

export async function addMember(em: EntityManager, now: Date, caller: Caller, org: OrganizationRow, userId: string, roles: readonly string[] | undefined): Promise<{ member: OrgMemberRow; user: UserRow }> {
  const user = await em.findOne(User, { id: userId });
  // An org-admin hears the same refusal for a missing user as for a stranger (member-admission.ts).
  if (!user) throw caller.kind === 'super_admin' ? AppError.notFound('user not found') : AppError.forbidden(ADMISSION_REFUSED);
  await assertMayAdmit(em, caller, org.id, user);
  const wanted = checkedRoles(roles);
  let member = await em.findOne(OrgMember, { orgId: org.id, userId });
  if (member) {
    member.roles = wanted;
    member.updatedAt = now;
  } else {
    member = em.create(OrgMember, { id: randomUUID(), orgId: org.id, userId, roles: wanted, createdAt: now, updatedAt: now });
    em.persist(member);
  }
  try {
    await em.flush();
  } catch (err) {
    if (isUniqueViolation(err)) throw new AppError('already_exists', 'this user was added at the same moment; read the members again');
    throw err;
  }
  return { member, user };
}

export async function removeMember(em: EntityManager, orgId: string, userId: string): Promise<void> {
  const removed = await em.nativeDelete(OrgMember, { orgId, userId });
  if (removed === 0) throw AppError.notFound('this user is not a member of the organization');
}

export async function listMembers(em: EntityManager, orgId: string, pagination: Static<typeof PaginationRequest> | undefined): Promise<Array<{ member: OrgMemberRow; user?: UserRow }> & { page: Page<OrgMemberRow>['pagination'] }> {
  const page = await paginate(em, OrgMember, { orgId }, pagination, { createdAt: 'asc', id: 'asc' });
  const users = page.items.length ? await em.find(User, { id: { $in: page.items.map((m) => m.userId) } }) : [];
  const byId = new Map(users.map((u) => [u.id, u]));
  return Object.assign(page.items.map((member) => ({ member, user: byId.get(member.userId) })), { page: page.pagination });
}

/** The user's memberships with their organizations, by organization name. */
export async function organizationsOfUser(em: EntityManager, userId: string): Promise<Array<{ org: OrganizationRow; roles: string[] }>> {
  const memberships = await em.find(OrgMember, { userId });
  if (memberships.length === 0) return [];
  const orgs = await em.find(Organization, { id: { $in: memberships.map((m) => m.orgId) } }, { orderBy: { name: 'asc' } });
  const rolesByOrg = new Map(memberships.map((m) => [m.orgId, m.roles]));
  return orgs.map((org) => ({ org, roles: [...(rolesByOrg.get(org.id) ?? [])] }));
}

/**
 * Run when a deleted user has left every organization, in delete_user's transaction: what modules above keep
 * per member of an organization goes with the membership (the SCIM provisioning record, modules/scim).
 */
export const onUserLeftAllOrganizations = defineHook<[em: EntityManager, userId: string, orgIds: readonly string[]]>('onUserLeftAllOrganizations');

/** A deleted user leaves every organization (called by delete_user in its transaction). */
export async function removeAllMemberships(em: EntityManager, userId: string): Promise<void> {
  const orgIds = (await em.find(OrgMember, { userId }, { fields: ['orgId'] })).map((m) => m.orgId);
  await em.nativeDelete(OrgMember, { userId });
  await onUserLeftAllOrganizations.run(em, userId, orgIds);
}
