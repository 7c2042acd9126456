/**
 * The rows GET /Users and GET /Groups read (scim-list.ts), confined to the token's organization: the columns
 * their filters and sorts run on (the indexes of scim.entity.ts), the email index of users
 * (scim-user-emails.ts) and the group member index (scim-group-members.ts), and the page's rows turned into
 * resources. A group page that drops `members` (`excludedAttributes=members`, as Entra ID asks; or
 * `attributes` without it) does not read them.
 */
import type { EntityManager, EntityName } from '@mikro-orm/core';
import type { ColumnDef } from './scim-db-filter.ts';
import type { ListSource, OrderBy, ReadOptions } from './scim-list.ts';
import { ScimGroup, ScimUser, ScimUserEmail, type ScimGroupRow } from './scim.entity.ts';
import type { ScimScope } from './scim-scope.ts';
import { showsMembers, toScimGroup } from './scim-groups.service.ts';
import { groupIdsWithMember, memberIdsByGroup } from './scim-group-members.ts';
import { recordsOf, toScimUser } from './scim-users.service.ts';

type Where = Record<string, unknown>;

function columns(defs: ColumnDef[]): ReadonlyMap<string, ColumnDef> {
  return new Map(defs.map((d) => [d.name.toLowerCase(), d]));
}

const META: ColumnDef[] = [
  { name: 'meta.created', property: 'createdAt', type: 'dateTime', sortable: true },
  { name: 'meta.lastModified', property: 'updatedAt', type: 'dateTime', sortable: true },
];

const USER_COLUMNS = columns([
  { name: 'id', property: 'userId', type: 'string', sortable: true, unique: true },
  { name: 'userName', property: 'userNameKey', type: 'string', lowerCased: true, sortable: true, unique: true },
  // caseExact, so not sortable here: the in-memory order compares it lower-cased.
  { name: 'externalId', property: 'externalId', type: 'string', optional: true },
  { name: 'active', property: 'active', type: 'boolean', sortable: true },
  ...META,
]);

const GROUP_COLUMNS = columns([
  { name: 'id', property: 'id', type: 'string', sortable: true, unique: true },
  { name: 'displayName', property: 'displayNameKey', type: 'string', lowerCased: true, sortable: true, unique: true },
  { name: 'externalId', property: 'externalId', type: 'string', optional: true },
  ...META,
]);

/** MySQL and MariaDB compare strings in their default collations ignoring case (scim-db-filter.ts). */
function foldsCase(scope: ScimScope): boolean {
  return scope.deps.storage.kind === 'mysql' || scope.deps.storage.kind === 'mariadb';
}

const OLDEST_FIRST: OrderBy = [{ createdAt: 'asc' }, { id: 'asc' }];

function findOptions(options: ReadOptions): Record<string, unknown> {
  return { orderBy: options.orderBy, ...(options.limit !== undefined ? { limit: options.limit, offset: options.offset ?? 0 } : {}) };
}

/** Past this offset a page's ids are found first, then its rows read by id. */
const DEEP_OFFSET = 1000;

/**
 * The rows of one page. A deep page (RFC 7644 section 3.4.2.4: startIndex far into the list) skips its offset
 * over the ids alone, which the order's index holds (scim.entity.ts: orgId, createdAt, id or orgId, userNameKey, id), instead of over
 * whole rows; then reads only the page's rows.
 */
async function pageRows<T extends { id: string }>(em: EntityManager, entity: EntityName<T>, where: Where, options: ReadOptions, fields?: readonly string[]): Promise<T[]> {
  const narrowed = fields ? { fields } : {};
  if ((options.offset ?? 0) < DEEP_OFFSET) return (await em.find(entity, where as never, { ...findOptions(options), ...narrowed } as never)) as T[];
  const ids = ((await em.find(entity, where as never, { ...findOptions(options), fields: ['id'] } as never)) as T[]).map((r) => r.id);
  const rows = (await em.find(entity, { id: { $in: ids } } as never, narrowed as never)) as T[];
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => (byId.has(id) ? [byId.get(id)!] : []));
}

export function userListSource(scope: ScimScope): ListSource {
  const { em } = scope;
  return {
    scopeWhere: { orgId: scope.org.id },
    key: 'id',
    columns: USER_COLUMNS,
    defaultOrder: OLDEST_FIRST,
    emailOwnerProperty: 'userId',
    foldsCase: foldsCase(scope),
    emailOwners: async (valueKey) => (await em.find(ScimUserEmail, { orgId: scope.org.id, valueKey }, { fields: ['userId'] })).map((r) => r.userId),
    count: (where) => em.count(ScimUser, where as never),
    read: async (where, options) => {
      const links = await pageRows(em, ScimUser, where, options);
      return (await recordsOf(scope, links)).map((record) => toScimUser(scope, record));
    },
  };
}

export function groupListSource(scope: ScimScope): ListSource {
  const { em } = scope;
  return {
    scopeWhere: { orgId: scope.org.id },
    key: 'id',
    columns: GROUP_COLUMNS,
    foldsCase: foldsCase(scope),
    defaultOrder: OLDEST_FIRST,
    memberGroups: (userId) => groupIdsWithMember(em, scope.org.id, userId),
    count: (where) => em.count(ScimGroup, where as never),
    read: async (where: Where, options) => {
      const rows = (await pageRows(em, ScimGroup, where, options)) as ScimGroupRow[];
      const members = showsMembers(options.query) ? await memberIdsByGroup(em, rows.map((r) => r.id)) : undefined;
      return rows.map((group) => toScimGroup(scope, { group, members: members?.get(group.id) }));
    },
  };
}
