/**
 * Bounds of the SCIM service (RFC 7644 section 3.4.2.4: the provider may cap `count`; the rest are this
 * server's resource limits, advertised where the ServiceProviderConfig has room for them).
 */
export const DEFAULT_PAGE_COUNT = 100;
export const MAX_PAGE_COUNT = 1000;
export const MAX_PATCH_OPERATIONS = 200;
/** Request bodies: a group of 20,000 members in one PUT stays under it. */
export const MAX_BODY_BYTES = 2 * 1024 * 1024;
export const PATCH_OP_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
export const PATCH_OP_SCHEMA_LOWER = PATCH_OP_SCHEMA.toLowerCase();
export const LIST_RESPONSE_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:ListResponse';
/**
 * A list whose filter or sortBy names an attribute without a database column (scim-db-filter.ts) is evaluated in
 * memory over the rows the rest of the filter selects, at most this many; more is refused, so that no request
 * reads a whole large organization.
 */
export const MAX_IN_MEMORY_CANDIDATES = 2000;
