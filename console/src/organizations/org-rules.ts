/**
 * The server's checks of an organization (server/modules/organizations/organizations.service.ts and
 * organizations.schema.ts), run in the form so the error sits beside its field; the server checks again and
 * its message is shown if it still refuses.
 */

/** The reserved org role that administers its organization (docs/api-overview.md#resources-and-fields). */
export const ORG_ADMIN_ROLE = 'service:org_admin';

export const MAX_SLUG = 63;
export const MAX_DISPLAY_NAME = 255;
export const MAX_ROLE = 100;
export const MAX_ROLES = 50;

/** Lowercase letters, digits and inner hyphens, at most 63 (a DNS label; RFC 3986 unreserved). */
const SLUG = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

export function isSlug(value: string): boolean {
  return SLUG.test(value);
}

/** A slug suggested from a display name: "Acme Corp." becomes "acme-corp". */
export function suggestSlug(displayName: string): string {
  return displayName
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, MAX_SLUG)
    .replace(/-+$/, '');
}
