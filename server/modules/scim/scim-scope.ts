/**
 * What one SCIM request works with: its unit of work, the organization its bearer token speaks for (every
 * read and write below is confined to it: one organization's token never sees another's users or groups),
 * the clock and configuration, and the base URL for `meta.location`.
 */
import type { EntityManager } from '@mikro-orm/core';
import type { Deps } from '../../kernel/deps.ts';
import type { OrganizationRow } from '../organizations/index.ts';

export interface ScimScope {
  readonly em: EntityManager;
  readonly deps: Pick<Deps, 'clock' | 'config'>;
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
