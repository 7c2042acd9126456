/**
 * The attributes this server keeps of SCIM Users and Groups (RFC 7643 sections 4.1, 4.2 and 4.3, the
 * enterprise extension), with what filters and PATCH need to know of each: type, multi-valued, caseExact.
 * Attribute names are case-insensitive (RFC 7643 section 2.1); canonicalResource() rewrites the provider's
 * spelling to the schema's, coerces the booleans Entra ID sends as strings ("True"), drops attributes that
 * are not here (RFC 7644 section 3.3: the provider MAY ignore them; `password` is never kept: provisioned
 * users sign in through the organization's SSO) and bounds every size.
 */
import { ScimError } from './scim-errors.ts';

export const USER_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:User';
export const GROUP_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Group';
export const ENTERPRISE_USER_SCHEMA = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';

export type AttributeType = 'string' | 'boolean' | 'dateTime' | 'complex' | 'reference';

export interface AttributeDef {
  readonly name: string;
  readonly type: AttributeType;
  readonly multiValued?: boolean;
  readonly caseExact?: boolean;
  readonly required?: boolean;
  readonly mutability?: 'readOnly' | 'readWrite' | 'immutable';
  readonly uniqueness?: 'server';
  readonly subAttributes?: readonly AttributeDef[];
  readonly description?: string;
}

const str = (name: string, extra: Partial<AttributeDef> = {}): AttributeDef => ({ name, type: 'string', ...extra });
const multi = (name: string, subs: readonly AttributeDef[]): AttributeDef => ({ name, type: 'complex', multiValued: true, subAttributes: subs });
const valueTypePrimary = [str('value'), str('display'), str('type'), { name: 'primary', type: 'boolean' } as AttributeDef];

export const META_ATTRIBUTE: AttributeDef = {
  name: 'meta', type: 'complex', mutability: 'readOnly', caseExact: true, subAttributes: [
    str('resourceType', { caseExact: true }), { name: 'created', type: 'dateTime' }, { name: 'lastModified', type: 'dateTime' },
    str('location', { caseExact: true }), str('version', { caseExact: true }),
  ],
};
const COMMON: readonly AttributeDef[] = [
  str('id', { caseExact: true, mutability: 'readOnly' }),
  str('externalId', { caseExact: true }),
  META_ATTRIBUTE,
];

export const USER_ATTRIBUTES: readonly AttributeDef[] = [
  str('userName', { required: true, uniqueness: 'server', description: 'unique per organization, case-insensitive' }),
  { name: 'name', type: 'complex', subAttributes: ['formatted', 'familyName', 'givenName', 'middleName', 'honorificPrefix', 'honorificSuffix'].map((n) => str(n)) },
  str('displayName'), str('nickName'), str('profileUrl'), str('title'), str('userType'), str('preferredLanguage'),
  str('locale'), str('timezone'),
  { name: 'active', type: 'boolean' },
  multi('emails', valueTypePrimary),
  multi('phoneNumbers', valueTypePrimary),
  multi('addresses', [
    ...['formatted', 'streetAddress', 'locality', 'region', 'postalCode', 'country', 'type'].map((n) => str(n)),
    { name: 'primary', type: 'boolean' },
  ]),
  multi('roles', valueTypePrimary),
];

export const ENTERPRISE_ATTRIBUTES: readonly AttributeDef[] = [
  ...['employeeNumber', 'costCenter', 'organization', 'division', 'department'].map((n) => str(n)),
  { name: 'manager', type: 'complex', subAttributes: [str('value', { caseExact: true }), str('displayName'), str('$ref', { caseExact: true })] },
];

export const GROUP_ATTRIBUTES: readonly AttributeDef[] = [
  str('displayName', { required: true, uniqueness: 'server', description: 'the org role its members hold' }),
  multi('members', [str('value', { caseExact: true, mutability: 'immutable' }), str('display'), str('type'), str('$ref', { caseExact: true })]),
];

export type ResourceKind = 'User' | 'Group';

/** Where an attribute lives: the core schema, or the enterprise extension (its own object, RFC 7643 section 3.3). */
export interface SchemaView {
  readonly core: readonly AttributeDef[];
  readonly coreUrn: string;
  readonly extensions: ReadonlyMap<string, readonly AttributeDef[]>;
}

export const USER_VIEW: SchemaView = { core: [...COMMON, ...USER_ATTRIBUTES], coreUrn: USER_SCHEMA, extensions: new Map([[ENTERPRISE_USER_SCHEMA, ENTERPRISE_ATTRIBUTES]]) };
export const GROUP_VIEW: SchemaView = { core: [...COMMON, ...GROUP_ATTRIBUTES], coreUrn: GROUP_SCHEMA, extensions: new Map() };

export function findAttribute(defs: readonly AttributeDef[] | undefined, name: string): AttributeDef | undefined {
  const lower = name.toLowerCase();
  return defs?.find((def) => def.name.toLowerCase() === lower);
}

/** The extension URN `name` spells, in its canonical case. */
export function findExtension(view: SchemaView, name: string): string | undefined {
  const lower = name.toLowerCase();
  return [...view.extensions.keys()].find((urn) => urn.toLowerCase() === lower);
}

const MAX_STRING = 2048;
const MAX_VALUES = 100;
export const MAX_GROUP_MEMBERS = 20_000;

/** A boolean, or the strings "true"/"false" in any case (Entra ID sends "True" and "False"). */
export function coerceBoolean(value: unknown, where: string): boolean {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string' && /^(true|false)$/i.test(value.trim())) return value.trim().toLowerCase() === 'true';
  throw ScimError.badRequest('invalidValue', `${where}: expected a boolean`);
}

function canonicalValue(def: AttributeDef, value: unknown, where: string): unknown {
  if (value === null || value === undefined) return undefined;
  if (def.multiValued) {
    const items = Array.isArray(value) ? value : [value];
    const cap = def.name === 'members' ? MAX_GROUP_MEMBERS : MAX_VALUES;
    if (items.length > cap) throw ScimError.badRequest('invalidValue', `${where}: at most ${cap} values`);
    const single: AttributeDef = { ...def, multiValued: false };
    const out = items.map((item, i) => canonicalValue(single, item, `${where}[${i}]`)).filter((v) => v !== undefined);
    return out.length ? out : undefined;
  }
  if (def.type === 'complex') {
    // Entra ID sends the enterprise manager as its id alone: a string for a complex attribute with a `value`.
    if (typeof value === 'string' && findAttribute(def.subAttributes, 'value')) return { value };
    if (typeof value !== 'object' || Array.isArray(value)) throw ScimError.badRequest('invalidValue', `${where}: expected an object`);
    const out = canonicalObject(def.subAttributes ?? [], value as Record<string, unknown>, where);
    return Object.keys(out).length ? out : undefined;
  }
  if (def.type === 'boolean') return coerceBoolean(value, where);
  if (typeof value === 'number') value = String(value);
  if (typeof value !== 'string') throw ScimError.badRequest('invalidValue', `${where}: expected a string`);
  if (value.length > MAX_STRING) throw ScimError.badRequest('invalidValue', `${where}: at most ${MAX_STRING} characters`);
  return value;
}

function canonicalObject(defs: readonly AttributeDef[], input: Record<string, unknown>, where: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(input)) {
    const def = findAttribute(defs, key);
    if (!def || def.mutability === 'readOnly') continue;
    const v = canonicalValue(def, value, where ? `${where}.${def.name}` : def.name);
    if (v !== undefined) out[def.name] = v;
  }
  return out;
}

/**
 * The writable attributes of a resource in canonical spelling: id, meta and schemas are the server's
 * (RFC 7643 section 3.1, mutability readOnly) and are dropped here; extension attributes stay under their URN.
 */
export function canonicalResource(view: SchemaView, input: unknown): Record<string, unknown> {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) throw ScimError.badRequest('invalidSyntax', 'the body must be a JSON object');
  const out = canonicalObject(view.core, input as Record<string, unknown>, '');
  for (const [key, value] of Object.entries(input as Record<string, unknown>)) {
    const urn = findExtension(view, key);
    if (!urn || value === null || value === undefined) continue;
    if (typeof value !== 'object' || Array.isArray(value)) throw ScimError.badRequest('invalidValue', `${urn}: expected an object`);
    const ext = canonicalObject(view.extensions.get(urn)!, value as Record<string, unknown>, urn);
    if (Object.keys(ext).length) out[urn] = ext;
  }
  return out;
}
