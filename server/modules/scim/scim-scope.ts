/**
 * What one SCIM request works with: its unit of work, the organization its bearer token speaks for (every
 * read and write below is confined to it: one organization's token never sees another's users or groups),
 * the server's dependencies, the request, and the base URL for `meta.location`.
 */
import type { EntityManager, EntityName, FilterQuery } from '@mikro-orm/core';
import type { Deps } from '../../kernel/deps.ts';
import type { RequestMeta } from '../../kernel/context.ts';
import type { OrganizationRow } from '../organizations/index.ts';

export interface ScimScope {
  readonly em: EntityManager;
  readonly deps: Deps;
  /** The provider's request (client IP per --trusted-proxies, user agent), for audit entries. */
  readonly req: RequestMeta;
  readonly org: OrganizationRow;
  /** `<--url>/scim/v2/`, ending in a slash. */
  readonly baseUrl: string;
}

export type ScimResource = Record<string, unknown>;

export function iso(date: Date): string {
  return date.toISOString();
}

/** RFC 7644 section 3.14: a weak entity tag from the resource's version counter. */
export function etagOf(version: number): string {
  return `W/"${version}"`;
}

/** Another request changed the resource between this one's read and its write: the caller retries afresh. */
export class ConcurrentScimChange extends Error {
  constructor() {
    super('the resource was changed by a concurrent request');
    this.name = 'ConcurrentScimChange';
  }
}

/**
 * Claims the next version of a resource with one conditional update before writing it, so that of two
 * concurrent PATCHes (two members added to one group at once) neither is lost: the second finds the version
 * moved (on PostgreSQL and MariaDB it waits for the first's row lock, then re-checks) and is retried.
 */
export async function claimNextVersion<T extends { id: string; version: number }>(em: EntityManager, entity: EntityName<T>, row: T): Promise<void> {
  const where = { id: row.id, version: row.version } as FilterQuery<T>;
  const updated = await em.nativeUpdate(entity, where, { version: row.version + 1 } as Partial<T>);
  if (updated !== 1) throw new ConcurrentScimChange();
  row.version += 1;
}
