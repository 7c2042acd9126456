/**
 * PATCH (RFC 7644 section 3.5.2) applied to a resource's SCIM representation; the caller then stores the
 * result as it would a PUT, so one set of rules (canonicalResource, uniqueness, the user and role side
 * effects) covers both. Supported: add, replace and remove, with and without `path`, attribute paths,
 * sub-attribute paths, value paths with a filter (`emails[type eq "work"].value`, `members[value eq "id"]`),
 * and what Entra ID and Okta send besides the RFC: capitalised op names ("Replace"), booleans as strings
 * ("False"), a path-less value object with dotted or schema-qualified keys ({"name.givenName": "x"}), and a
 * `remove` of `members` whose value lists the members to remove.
 */
import { PATCH_OP_SCHEMA_LOWER, MAX_PATCH_OPERATIONS } from './scim-limits.ts';
import { findAttribute, findExtension, type AttributeDef, type SchemaView } from './scim-attributes.ts';
import { ScimError } from './scim-errors.ts';
import { compileValueFilter } from './scim-filter.ts';
import { containerOf, parsePatchPath, type PatchPath } from './scim-paths.ts';

type Op = 'add' | 'replace' | 'remove';
type Resource = Record<string, unknown>;

export interface PatchOperation {
  readonly op: Op;
  readonly path?: string;
  readonly value?: unknown;
}

/** The operations of a PatchOp body, checked for shape and count. */
export function readPatchBody(body: unknown): PatchOperation[] {
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw ScimError.badRequest('invalidSyntax', 'the body must be a PatchOp JSON object');
  const { schemas, Operations } = body as { schemas?: unknown; Operations?: unknown };
  if (!Array.isArray(schemas) || !schemas.some((s) => typeof s === 'string' && s.toLowerCase() === PATCH_OP_SCHEMA_LOWER)) {
    throw ScimError.badRequest('invalidSyntax', 'schemas must hold urn:ietf:params:scim:api:messages:2.0:PatchOp');
  }
  if (!Array.isArray(Operations) || Operations.length === 0) throw ScimError.badRequest('invalidSyntax', 'Operations must be a non-empty array');
  if (Operations.length > MAX_PATCH_OPERATIONS) throw ScimError.badRequest('tooMany', `at most ${MAX_PATCH_OPERATIONS} operations per PATCH`);
  return Operations.map((raw, i) => {
    if (!raw || typeof raw !== 'object') throw ScimError.badRequest('invalidSyntax', `Operations[${i}] must be an object`);
    const { op, path, value } = raw as { op?: unknown; path?: unknown; value?: unknown };
    const name = typeof op === 'string' ? op.toLowerCase() : '';
    if (name !== 'add' && name !== 'replace' && name !== 'remove') throw ScimError.badRequest('invalidSyntax', `Operations[${i}].op must be add, replace or remove`);
    if (path !== undefined && (typeof path !== 'string' || path.trim() === '')) throw ScimError.badRequest('invalidPath', `Operations[${i}].path must be a non-empty string`);
    if (name !== 'remove' && value === undefined) throw ScimError.badRequest('invalidValue', `Operations[${i}].value is required for ${name}`);
    return { op: name, path: path as string | undefined, value };
  });
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Case-insensitive merge of sub-attributes (RFC 7644 section 3.5.2.1/3.5.2.3: unnamed sub-attributes stay). */
function mergeComplex(def: AttributeDef, current: unknown, value: unknown): Record<string, unknown> {
  // Entra ID sets the enterprise manager by its id alone (canonicalResource reads it the same way).
  if (typeof value === 'string' && findAttribute(def.subAttributes, 'value')) value = { value };
  if (!isObject(value)) throw ScimError.badRequest('invalidValue', `${def.name}: expected an object`);
  const merged: Record<string, unknown> = isObject(current) ? { ...current } : {};
  for (const [key, v] of Object.entries(value)) merged[findAttribute(def.subAttributes, key)?.name ?? key] = v;
  return merged;
}

/** Two values of a multi-valued attribute are the same value when their `value` sub-attributes are equal. */
function sameValue(def: AttributeDef, a: unknown, b: unknown): boolean {
  if (!isObject(a) || !isObject(b)) return a === b;
  const key = (o: Record<string, unknown>) => Object.entries(o).find(([k]) => k.toLowerCase() === 'value')?.[1];
  const va = key(a);
  const vb = key(b);
  if (va === undefined || vb === undefined) return false;
  const caseExact = findAttribute(def.subAttributes, 'value')?.caseExact;
  return caseExact ? va === vb : String(va).toLowerCase() === String(vb).toLowerCase();
}

function asList(value: unknown): unknown[] {
  return Array.isArray(value) ? value : value === undefined || value === null ? [] : [value];
}

/** The values a `{type eq "work"}`-like filter implies, so a replace on a value path can create its target. */
function impliedByFilter(text: string): Record<string, unknown> | undefined {
  const clauses = text.split(/\s+and\s+/i);
  const out: Record<string, unknown> = {};
  for (const clause of clauses) {
    const m = /^\s*([A-Za-z$][\w$-]*)\s+eq\s+"((?:[^"\\]|\\.)*)"\s*$/i.exec(clause);
    if (!m) return undefined;
    out[m[1]] = JSON.parse(`"${m[2]}"`);
  }
  return out;
}

async function applyWithPath(view: SchemaView, resource: Resource, op: Op, path: PatchPath, value: unknown, pathText: string): Promise<void> {
  const container = containerOf(resource, path.extension, op !== 'remove');
  if (!container) return;
  const def = path.attribute;
  const name = def.name;
  if (def.mutability === 'readOnly') throw ScimError.badRequest('mutability', `${name} is read-only`);
  if (path.valueFilter !== undefined) {
    const matches = await compileValueFilter(view, def, path.valueFilter);
    const items = asList(container[name]);
    const hit = items.filter((item) => isObject(item) && matches(item));
    if (op === 'remove') {
      if (path.sub) for (const item of hit) delete (item as Record<string, unknown>)[path.sub.name];
      else container[name] = items.filter((item) => !hit.includes(item));
      return;
    }
    if (hit.length === 0) {
      // Entra ID replaces emails[type eq "work"].value on a user without a work email: the filter names the new value.
      const implied = impliedByFilter(path.valueFilter);
      if (!implied) throw ScimError.badRequest('noTarget', `no value of ${name} matches ${JSON.stringify(pathText)}`);
      container[name] = [...items, path.sub ? { ...implied, [path.sub.name]: value } : { ...implied, ...(isObject(value) ? value : {}) }];
      return;
    }
    for (const item of hit as Record<string, unknown>[]) {
      if (path.sub) item[path.sub.name] = value;
      else Object.assign(item, mergeComplex(def, item, value));
    }
    return;
  }
  if (path.sub) {
    if (def.multiValued) {
      // `emails.value` without a filter names that sub-attribute of every value.
      for (const item of asList(container[name])) {
        if (!isObject(item)) continue;
        if (op === 'remove') delete item[path.sub.name];
        else item[path.sub.name] = value;
      }
      return;
    }
    const holder = isObject(container[name]) ? (container[name] as Record<string, unknown>) : {};
    if (op === 'remove') delete holder[path.sub.name];
    else holder[path.sub.name] = value;
    container[name] = holder;
    return;
  }
  if (op === 'remove') {
    // Entra ID removes group members with path "members" and the members to remove as the value.
    if (def.multiValued && value !== undefined) {
      const gone = asList(value);
      container[name] = asList(container[name]).filter((item) => !gone.some((g) => sameValue(def, item, g)));
    } else {
      delete container[name];
    }
    return;
  }
  if (def.multiValued) {
    const incoming = asList(value);
    if (op === 'replace') container[name] = incoming;
    else {
      const existing = asList(container[name]);
      container[name] = [...existing, ...incoming.filter((v) => !existing.some((e) => sameValue(def, e, v)))];
    }
    return;
  }
  container[name] = def.type === 'complex' ? mergeComplex(def, container[name], value) : value;
}

/** A path-less add or replace: each key of the value object is a path of its own (RFC 7644 section 3.5.2.1). */
async function applyWithoutPath(view: SchemaView, resource: Resource, op: Op, value: unknown): Promise<void> {
  if (op === 'remove') throw ScimError.badRequest('noTarget', 'remove needs a path');
  if (!isObject(value)) throw ScimError.badRequest('invalidValue', `${op} without a path needs an object value`);
  for (const [key, v] of Object.entries(value)) {
    const urn = findExtension(view, key);
    if (urn) {
      if (!isObject(v)) throw ScimError.badRequest('invalidValue', `${urn}: expected an object`);
      for (const [sub, subValue] of Object.entries(v)) await applyOne(view, resource, op, `${urn}:${sub}`, subValue, true);
      continue;
    }
    if (key.toLowerCase() === 'schemas') continue;
    await applyOne(view, resource, op, key, v, true);
  }
}

async function applyOne(view: SchemaView, resource: Resource, op: Op, pathText: string, value: unknown, lenient: boolean): Promise<void> {
  let path: PatchPath;
  try {
    path = parsePatchPath(view, pathText);
  } catch (err) {
    // Keys of a path-less value that this server does not keep are ignored, as unknown attributes of a PUT are.
    if (lenient) return;
    throw err;
  }
  if (lenient && path.attribute.mutability === 'readOnly') return;
  await applyWithPath(view, resource, op, path, value, pathText);
}

/** The resource after the operations, in order; an error in any leaves the stored one as it was. */
export async function applyPatch(view: SchemaView, current: Resource, operations: readonly PatchOperation[]): Promise<Resource> {
  const resource = structuredClone(current);
  for (const operation of operations) {
    if (operation.path === undefined) await applyWithoutPath(view, resource, operation.op, operation.value);
    else await applyOne(view, resource, operation.op, operation.path, operation.value, false);
  }
  return resource;
}
