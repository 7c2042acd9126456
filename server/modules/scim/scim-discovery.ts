/**
 * Discovery resources (RFC 7644 section 4; RFC 7643 sections 5, 6 and 7): what this service supports, its
 * two resource types and their schemas, built from the attribute definitions the service itself uses.
 */
import { ENTERPRISE_ATTRIBUTES, ENTERPRISE_USER_SCHEMA, GROUP_ATTRIBUTES, GROUP_SCHEMA, USER_ATTRIBUTES, USER_SCHEMA, type AttributeDef } from './scim-attributes.ts';
import { MAX_BODY_BYTES, MAX_PAGE_COUNT } from './scim-limits.ts';

const SPC_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig';
const RT_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:ResourceType';
const SCHEMA_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Schema';

export function serviceProviderConfig(baseUrl: string): Record<string, unknown> {
  return {
    schemas: [SPC_SCHEMA],
    patch: { supported: true },
    bulk: { supported: false, maxOperations: 0, maxPayloadSize: MAX_BODY_BYTES },
    filter: { supported: true, maxResults: MAX_PAGE_COUNT },
    changePassword: { supported: false },
    sort: { supported: true },
    etag: { supported: true },
    authenticationSchemes: [{ type: 'oauthbearertoken', name: 'Bearer token', description: "The organization's SCIM token, sent as Authorization: Bearer", primary: true }],
    meta: { resourceType: 'ServiceProviderConfig', location: `${baseUrl}ServiceProviderConfig` },
  };
}

export function resourceTypes(baseUrl: string): Record<string, unknown>[] {
  return [
    { schemas: [RT_SCHEMA], id: 'User', name: 'User', endpoint: '/Users', schema: USER_SCHEMA, schemaExtensions: [{ schema: ENTERPRISE_USER_SCHEMA, required: false }], meta: { resourceType: 'ResourceType', location: `${baseUrl}ResourceTypes/User` } },
    { schemas: [RT_SCHEMA], id: 'Group', name: 'Group', endpoint: '/Groups', schema: GROUP_SCHEMA, meta: { resourceType: 'ResourceType', location: `${baseUrl}ResourceTypes/Group` } },
  ];
}

function describe(def: AttributeDef): Record<string, unknown> {
  return {
    name: def.name,
    type: def.type,
    multiValued: def.multiValued ?? false,
    ...(def.description ? { description: def.description } : {}),
    required: def.required ?? false,
    caseExact: def.caseExact ?? false,
    mutability: def.mutability ?? 'readWrite',
    returned: 'default',
    uniqueness: def.uniqueness ?? 'none',
    ...(def.subAttributes ? { subAttributes: def.subAttributes.map(describe) } : {}),
  };
}

export function schemas(baseUrl: string): Record<string, unknown>[] {
  const one = (id: string, name: string, attributes: readonly AttributeDef[]) => ({
    schemas: [SCHEMA_SCHEMA], id, name, attributes: attributes.map(describe), meta: { resourceType: 'Schema', location: `${baseUrl}Schemas/${id}` },
  });
  return [one(USER_SCHEMA, 'User', USER_ATTRIBUTES), one(ENTERPRISE_USER_SCHEMA, 'EnterpriseUser', ENTERPRISE_ATTRIBUTES), one(GROUP_SCHEMA, 'Group', GROUP_ATTRIBUTES)];
}
