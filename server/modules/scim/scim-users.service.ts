/**
 * SCIM Users of one organization (RFC 7643 section 4.1, RFC 7644 section 3): provisioning creates, links or
 * cleanly takes over an account (scim-account-control.ts) and makes it a member of the organization; userName
 * is unique per organization, case-insensitively. The account's email is the userName when that is an
 * address, otherwise the primary (or first) email; provisioned accounts get no password and sign in through
 * the organization's SSO, and their email is not marked verified (the provider's word proves no mailbox).
 * `active: false` revokes a governed account's access at once, as revoke_access does (sessions and tokens
 * end, sign-in is refused); `active: true` restores it unless the super-admin revoked it (only SCIM's own
 * revocation is SCIM's to lift). DELETE removes the user from the organization and its groups and
 * deprovisions a governed account the same way; the account itself is never deleted.
 */
import { randomUUID } from 'node:crypto';
import { AppError } from '../../kernel/errors.ts';
import { isUniqueViolation } from '../../storage/errors.ts';
import { createUser, emailProven, findUserByEmail, isValidEmail, normaliseEmail, rolesForSignup, toPublicUser, updateUserContact, User, type UserRow } from '../users/index.ts';
import { takeOverUnprovenAccount } from '../accounts/index.ts';
import { OrgMember } from '../organizations/index.ts';
import { revokeAllForUser } from '../tokens/index.ts';
import { recordEvent } from '../events/index.ts';
import { ENTERPRISE_USER_SCHEMA, USER_SCHEMA, USER_VIEW, canonicalResource } from './scim-attributes.ts';
import { ScimError } from './scim-errors.ts';
import { ScimGroup, ScimUser, type ScimGroupRow, type ScimUserRow } from './scim.entity.ts';
import { deleteMemberships, groupIdsWithMember } from './scim-group-members.ts';
import { OUTSIDE_VERIFIED_DOMAINS, domainVerifiedForOrg } from './scim-account-control.ts';
import { changeRoles } from './scim-group-roles.ts';
import { dropEmailIndex, writeEmailIndex } from './scim-user-emails.ts';
import { claimNextVersion, etagOf, iso, type ScimResource, type ScimScope } from './scim-scope.ts';

const MAX_USER_NAME = 255;
const UNLINKABLE = "an account with this email already exists outside this organization's verified domains";

export interface ScimUserRecord {
  readonly link: ScimUserRow;
  readonly user: UserRow;
}

/** The SCIM representation (RFC 7643 section 4.1) of a provisioned user. */
export function toScimUser(scope: ScimScope, { link, user }: ScimUserRecord): ScimResource {
  const stored = link.resource;
  const name = { ...((stored.name as Record<string, unknown>) ?? {}) };
  if (user.givenName) name.givenName = user.givenName;
  if (user.familyName) name.familyName = user.familyName;
  const { userName: _u, externalId: _e, active: _a, name: _n, ...rest } = stored;
  return {
    schemas: stored[ENTERPRISE_USER_SCHEMA] ? [USER_SCHEMA, ENTERPRISE_USER_SCHEMA] : [USER_SCHEMA],
    id: user.id,
    ...(link.externalId ? { externalId: link.externalId } : {}),
    userName: link.userName,
    ...(Object.keys(name).length ? { name } : {}),
    ...rest,
    active: link.active,
    meta: {
      resourceType: 'User',
      created: iso(link.createdAt),
      lastModified: iso(link.updatedAt),
      location: `${scope.baseUrl}Users/${user.id}`,
      version: etagOf(link.version),
    },
  };
}

/** The attributes the account row holds, read from a canonical resource. */
function accountFields(resource: ScimResource): { userName: string; email?: string; givenName?: string; familyName?: string } {
  const userName = typeof resource.userName === 'string' ? resource.userName.trim() : '';
  if (!userName) throw ScimError.badRequest('invalidValue', 'userName is required');
  if (userName.length > MAX_USER_NAME) throw ScimError.badRequest('invalidValue', `userName: at most ${MAX_USER_NAME} characters`);
  const emails = (resource.emails as Array<Record<string, unknown>> | undefined) ?? [];
  const primary = emails.find((e) => e.primary === true) ?? emails[0];
  const candidates = [userName, typeof primary?.value === 'string' ? primary.value : undefined];
  const email = candidates.map((c) => (c ? normaliseEmail(c) : '')).find((c) => c && isValidEmail(c));
  const name = (resource.name as Record<string, unknown> | undefined) ?? {};
  return {
    userName,
    email,
    givenName: typeof name.givenName === 'string' ? name.givenName : undefined,
    familyName: typeof name.familyName === 'string' ? name.familyName : undefined,
  };
}

/** What is kept beside the columns: every canonical attribute but those with their own column. */
function storedResource(resource: ScimResource): ScimResource {
  const { userName: _u, externalId: _e, active: _a, ...rest } = resource;
  return rest;
}

async function assertUserNameFree(scope: ScimScope, userNameKey: string, exceptId?: string): Promise<void> {
  const taken = await scope.em.findOne(ScimUser, { orgId: scope.org.id, userNameKey });
  if (!taken || taken.id === exceptId) return;
  // The account was deleted by the super-admin (delete_user): its provisioning record must not hold the name.
  if (!(await scope.em.findOne(User, { id: taken.userId }, { fields: ['id'] }))) {
    await dropEmailIndex(scope.em, taken.id);
    await scope.em.nativeDelete(ScimUser, { id: taken.id });
    return;
  }
  throw ScimError.conflict('a user with this userName already exists in this organization');
}

async function flushUnique(scope: ScimScope): Promise<void> {
  try {
    await scope.em.flush();
  } catch (err) {
    if (isUniqueViolation(err)) throw ScimError.conflict('a user with this userName already exists in this organization');
    throw err;
  }
}

/** SCIM's revocation of a governed account; an administrator's revocation already in force stays theirs. */
async function revokeByScim(scope: ScimScope, user: UserRow, now: Date): Promise<void> {
  if (!user.revokedAt) {
    user.revokedAt = now;
    user.revokedBy = 'scim';
  }
  await revokeAllForUser(scope.em, scope.deps.clock, user.id);
}

/**
 * Revokes or restores what `active` governs: the whole account, or only the membership (scim-account-control.ts).
 * `active: true` lifts only a revocation SCIM made (User.revokedBy): the super-admin's revoke_access is not the
 * provider's to undo, so the account stays revoked (and the link active) until enable_access.
 */
async function applyActive(scope: ScimScope, record: ScimUserRecord, active: boolean): Promise<void> {
  const { link, user } = record;
  if (link.active === active) return;
  const { em, deps } = scope;
  const now = deps.clock.now();
  link.active = active;
  if (link.managesAccount) {
    if (!active) {
      await revokeByScim(scope, user, now);
    } else if (user.revokedBy === 'scim') {
      user.revokedAt = null;
      user.revokedBy = null;
    }
    user.updatedAt = now;
    return;
  }
  if (!active) {
    await em.nativeDelete(OrgMember, { orgId: scope.org.id, userId: user.id });
  } else {
    const roles = (await groupsOf(scope, user.id)).map((g) => g.displayName);
    await ensureMember(scope, user.id, roles);
  }
}

/** The organization's groups the user is a member of (the member index, scim-group-members.ts). */
async function groupsOf(scope: ScimScope, userId: string): Promise<ScimGroupRow[]> {
  const ids = await groupIdsWithMember(scope.em, scope.org.id, userId);
  return ids.length ? scope.em.find(ScimGroup, { orgId: scope.org.id, id: { $in: ids } }, { orderBy: { id: 'asc' } }) : [];
}

async function ensureMember(scope: ScimScope, userId: string, roles: string[] = []): Promise<void> {
  const { em } = scope;
  if (await em.findOne(OrgMember, { orgId: scope.org.id, userId }, { fields: ['id'] })) return;
  const now = scope.deps.clock.now();
  em.persist(em.create(OrgMember, { id: randomUUID(), orgId: scope.org.id, userId, roles, createdAt: now, updatedAt: now }));
}

/**
 * The account a new SCIM user becomes (scim-account-control.ts): a new one; an existing one whose address was
 * proven (users/address-proof.ts), linked as it is; or an existing one whose address nobody proved, in a domain
 * the organization verified, taken over cleanly (accounts/clean-takeover.ts) so that whoever registered the
 * address first keeps no way in. Any other existing account is a uniqueness conflict (RFC 7644 section 3.3).
 */
async function accountFor(scope: ScimScope, fields: ReturnType<typeof accountFields>): Promise<{ user: UserRow; manages: boolean; created: boolean }> {
  const { em, deps } = scope;
  if (!fields.email) throw ScimError.badRequest('invalidValue', 'userName or the primary email must be an email address: the account needs one');
  const existing = await findUserByEmail(em, fields.email, { includeDeactivated: true });
  if (!existing) {
    if (!(await domainVerifiedForOrg(em, scope.org.id, fields.email))) throw ScimError.badRequest('invalidValue', OUTSIDE_VERIFIED_DOMAINS);
    const user = await createUser(em, deps.clock, {
      email: fields.email,
      signupMethods: ['scim'],
      roles: rolesForSignup(deps.config),
      givenName: fields.givenName,
      familyName: fields.familyName,
      preferredUsername: fields.userName === fields.email ? undefined : fields.userName,
    });
    return { user, manages: true, created: true };
  }
  if (await em.findOne(ScimUser, { orgId: scope.org.id, userId: existing.id }, { fields: ['id'] })) {
    throw ScimError.conflict('the account with this email is already provisioned in this organization under another userName');
  }
  const manages = await domainVerifiedForOrg(em, scope.org.id, existing.email);
  if (!emailProven(existing)) {
    // Not even as a member: the provider's user would be joined to whoever typed the address in.
    if (!manages) throw ScimError.conflict(UNLINKABLE);
    await takeOverUnprovenAccount(scope, existing, { organizationId: scope.org.id, via: 'scim' });
    existing.givenName = fields.givenName ?? null;
    existing.familyName = fields.familyName ?? null;
    existing.preferredUsername = fields.userName === fields.email ? null : fields.userName;
    return { user: existing, manages, created: false };
  }
  const member = await em.findOne(OrgMember, { orgId: scope.org.id, userId: existing.id }, { fields: ['id'] });
  if (!manages && !member) throw ScimError.conflict(UNLINKABLE);
  return { user: existing, manages, created: false };
}

export async function createScimUser(scope: ScimScope, body: unknown): Promise<ScimUserRecord> {
  const resource = canonicalResource(USER_VIEW, body);
  const fields = accountFields(resource);
  const userNameKey = fields.userName.toLowerCase();
  await assertUserNameFree(scope, userNameKey);
  let account;
  try {
    account = await accountFor(scope, fields);
  } catch (err) {
    // A ScimError is an AppError too (scim-errors.ts): accountFor's own 409 passes as it was thrown.
    if (err instanceof AppError && !(err instanceof ScimError) && err.kind === 'already_exists') throw ScimError.conflict('an account with this email already exists');
    throw err;
  }
  const { em, deps } = scope;
  const now = deps.clock.now();
  const link = em.create(ScimUser, {
    id: randomUUID(),
    orgId: scope.org.id,
    userId: account.user.id,
    userName: fields.userName,
    userNameKey,
    externalId: typeof resource.externalId === 'string' ? resource.externalId : null,
    active: true,
    managesAccount: account.manages,
    resource: storedResource(resource),
    version: 1,
    createdAt: now,
    updatedAt: now,
  });
  em.persist(link);
  await writeEmailIndex(em, link, false);
  account.user.scimExternalId = link.externalId;
  await ensureMember(scope, account.user.id);
  const record = { link, user: account.user };
  if (resource.active === false) await applyActive(scope, record, false);
  await flushUnique(scope);
  recordEvent(em, 'user.provisioned', { user: toPublicUser(account.user) }, deps.clock);
  return record;
}

export async function findScimUser(scope: ScimScope, id: string): Promise<ScimUserRecord> {
  const link = await scope.em.findOne(ScimUser, { orgId: scope.org.id, userId: id });
  const user = link ? await scope.em.findOne(User, { id: link.userId }) : null;
  if (!link || !user) throw ScimError.notFound(`User ${id} not found`);
  return { link, user };
}

/** The representation PATCH works on: the stored attributes with the columns put back. */
export function writableUser(record: ScimUserRecord): ScimResource {
  const { link, user } = record;
  const name = { ...((link.resource.name as Record<string, unknown>) ?? {}) };
  if (user.givenName) name.givenName = user.givenName;
  if (user.familyName) name.familyName = user.familyName;
  return {
    ...structuredClone(link.resource),
    userName: link.userName,
    ...(link.externalId ? { externalId: link.externalId } : {}),
    ...(Object.keys(name).length ? { name } : {}),
    active: link.active,
  };
}

/** PUT (RFC 7644 section 3.5.1) and the result of a PATCH: the given attributes replace the stored ones. */
export async function replaceScimUser(scope: ScimScope, record: ScimUserRecord, body: unknown): Promise<ScimUserRecord> {
  const resource = canonicalResource(USER_VIEW, body);
  const fields = accountFields(resource);
  const { link, user } = record;
  const { em, deps } = scope;
  const userNameKey = fields.userName.toLowerCase();
  if (userNameKey !== link.userNameKey) await assertUserNameFree(scope, userNameKey, link.id);
  const wasActive = link.active;
  // Only a governed account's address follows the provider (scim-account-control.ts).
  if (link.managesAccount && fields.email && fields.email !== user.email) {
    if (!(await domainVerifiedForOrg(em, scope.org.id, fields.email))) throw ScimError.badRequest('invalidValue', OUTSIDE_VERIFIED_DOMAINS);
    try {
      await updateUserContact(em, user, { email: fields.email }, deps.clock);
    } catch (err) {
      if (err instanceof AppError && !(err instanceof ScimError) && err.kind === 'already_exists') throw ScimError.conflict('an account with this email already exists');
      throw err;
    }
  }
  const now = deps.clock.now();
  if (link.managesAccount) {
    user.givenName = fields.givenName ?? null;
    user.familyName = fields.familyName ?? null;
    user.preferredUsername = fields.userName === fields.email ? user.preferredUsername : fields.userName;
  }
  link.userName = fields.userName;
  link.userNameKey = userNameKey;
  link.externalId = typeof resource.externalId === 'string' ? resource.externalId : null;
  link.resource = storedResource(resource);
  await writeEmailIndex(em, link, true);
  await claimNextVersion(em, ScimUser, link);
  link.updatedAt = now;
  user.scimExternalId = link.externalId;
  user.updatedAt = now;
  const active = resource.active === undefined ? true : resource.active === true;
  await applyActive(scope, record, active);
  await flushUnique(scope);
  recordEvent(em, wasActive && !active ? 'user.deprovisioned' : 'user.scim_updated', { user: toPublicUser(user) }, deps.clock);
  return record;
}

/** DELETE (RFC 7644 section 3.6): out of the organization and its groups; a governed account is revoked. */
export async function deleteScimUser(scope: ScimScope, record: ScimUserRecord): Promise<void> {
  const { link, user } = record;
  const { em, deps } = scope;
  const now = deps.clock.now();
  for (const group of await groupsOf(scope, user.id)) {
    await changeRoles(em, now, scope.org.id, { remove: { role: group.displayName, userIds: [user.id] } });
    await claimNextVersion(em, ScimGroup, group);
    group.updatedAt = now;
  }
  await deleteMemberships(em, scope.org.id, user.id);
  await em.nativeDelete(OrgMember, { orgId: scope.org.id, userId: user.id });
  if (link.managesAccount) await revokeByScim(scope, user, now);
  if (user.scimExternalId === link.externalId) user.scimExternalId = null;
  user.updatedAt = now;
  await dropEmailIndex(em, link.id);
  em.remove(link);
  await em.flush();
  recordEvent(em, 'user.deprovisioned', { user: toPublicUser(user) }, deps.clock);
}

/**
 * The records of links read by a list page (scim-list-sources.ts), in the links' order. A link whose account
 * the super-admin deleted (delete_user) is left out, as it is no user of the organization any more.
 */
export async function recordsOf(scope: ScimScope, links: readonly ScimUserRow[]): Promise<ScimUserRecord[]> {
  const users = new Map<string, UserRow>();
  for (let i = 0; i < links.length; i += 500) {
    for (const user of await scope.em.find(User, { id: { $in: links.slice(i, i + 500).map((l) => l.userId) } })) users.set(user.id, user);
  }
  return links.flatMap((link) => (users.has(link.userId) ? [{ link, user: users.get(link.userId)! }] : []));
}
