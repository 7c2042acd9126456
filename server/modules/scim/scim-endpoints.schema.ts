/**
 * Wire shapes of the SCIM endpoint operations (docs/operations.md, "SCIM"; docs/api-overview.md#resources-and-fields: create and rotate
 * answer `{scim_endpoint, token}`). The record never holds the token or its digest; `base_url` is what the
 * organization's identity provider is configured with (`<--url>/scim/v2/`, one for every organization: the
 * token says which one).
 */
import { s, type Static } from '../../ops/schema.ts';
import type { Config } from '../../config/flags.ts';
import type { ScimEndpointRow } from './scim.entity.ts';

const orgId = s.string({ minLength: 1, maxLength: 64 });

export const ScimEndpointSchema = s.object('ScimEndpoint', {
  id: s.string(),
  org_id: s.string(),
  base_url: s.string(),
  token_rotated_at: s.int64(),
  last_used_at: s.optional(s.int64()),
  created_at: s.int64(),
  updated_at: s.int64(),
});

export const ScimEndpointWithToken = s.object('ScimEndpointWithToken', {
  scim_endpoint: ScimEndpointSchema,
  token: s.string({ description: 'the bearer token for the identity provider, shown this once' }),
});

/** scim_endpoint answers whether one exists, and the base URL either way. */
export const ScimEndpointStatus = s.object('ScimEndpointStatus', {
  org_id: s.string(),
  base_url: s.string(),
  exists: s.boolean(),
  scim_endpoint: s.optional(ScimEndpointSchema),
});

export const ScimEndpointRequest = s.object('ScimEndpointRequest', { org_id: orgId });

export function scimBaseUrl(config: Pick<Config, 'url'>): string {
  return `${(config.url ?? '').replace(/\/+$/, '')}/scim/v2/`;
}

const seconds = (date: Date): number => Math.floor(date.getTime() / 1000);

export function toPublicScimEndpoint(row: ScimEndpointRow, config: Pick<Config, 'url'>): Static<typeof ScimEndpointSchema> {
  return {
    id: row.id,
    org_id: row.orgId,
    base_url: scimBaseUrl(config),
    token_rotated_at: seconds(row.tokenRotatedAt),
    ...(row.lastUsedAt ? { last_used_at: seconds(row.lastUsedAt) } : {}),
    created_at: seconds(row.createdAt),
    updated_at: seconds(row.updatedAt),
  };
}
