/**
 * Attribute paths (RFC 7644 section 3.10 "attrPath", section 3.5.2 PATCH "path"): `attr`, `attr.sub`, a
 * schema-qualified `urn:...:User:attr`, and for PATCH a value path `attr[filter]` optionally followed by
 * `.sub`. Names resolve case-insensitively to their canonical spelling (RFC 7643 section 2.1).
 */
import { findAttribute, type AttributeDef, type SchemaView } from './scim-attributes.ts';
import { ScimError } from './scim-errors.ts';

export interface ResolvedPath {
  /** The extension URN holding the attribute; undefined for the core schema. */
  readonly extension?: string;
  readonly attribute: AttributeDef;
  readonly sub?: AttributeDef;
}

/** Splits off a schema URN prefix: the core one is dropped, an extension one is returned. */
function unqualified(view: SchemaView, path: string): { extension?: string; rest: string } {
  const lower = path.toLowerCase();
  const core = `${view.coreUrn.toLowerCase()}:`;
  if (lower.startsWith(core)) return { rest: path.slice(core.length) };
  for (const urn of view.extensions.keys()) {
    if (lower === urn.toLowerCase()) return { extension: urn, rest: '' };
    if (lower.startsWith(`${urn.toLowerCase()}:`)) return { extension: urn, rest: path.slice(urn.length + 1) };
  }
  return { rest: path };
}

/** `attr` or `attr.sub` within `defs`, or an error of the given scimType. */
export function resolveAttrPath(view: SchemaView, path: string, scimType: 'invalidFilter' | 'invalidPath'): ResolvedPath {
  const { extension, rest } = unqualified(view, path.trim());
  const defs = extension ? view.extensions.get(extension) : view.core;
  const [name, subName, ...more] = rest.split('.');
  const attribute = name ? findAttribute(defs, name) : undefined;
  if (!attribute || more.length) throw ScimError.badRequest(scimType, `unknown attribute ${JSON.stringify(path)}`);
  if (subName === undefined) return { extension, attribute };
  const sub = findAttribute(attribute.subAttributes, subName);
  if (!sub) throw ScimError.badRequest(scimType, `unknown attribute ${JSON.stringify(path)}`);
  return { extension, attribute, sub };
}

/** A sub-attribute path inside a value filter (`type`, `value`), relative to its multi-valued attribute. */
export function resolveSubPath(parent: AttributeDef, path: string, scimType: 'invalidFilter' | 'invalidPath'): AttributeDef {
  const sub = findAttribute(parent.subAttributes, path.trim());
  if (!sub) throw ScimError.badRequest(scimType, `unknown attribute ${JSON.stringify(`${parent.name}.${path}`)}`);
  return sub;
}

export interface PatchPath {
  readonly extension?: string;
  readonly attribute: AttributeDef;
  /** The text inside the brackets of a value path, parsed by scim-filter.ts. */
  readonly valueFilter?: string;
  readonly sub?: AttributeDef;
}

/** A PATCH path: attrPath, or valuePath with an optional `.subAttr` (RFC 7644 section 3.5.2, figure 1). */
export function parsePatchPath(view: SchemaView, path: string): PatchPath {
  const text = path.trim();
  const open = text.indexOf('[');
  if (open < 0) return resolveAttrPath(view, text, 'invalidPath');
  const close = text.lastIndexOf(']');
  if (close < open) throw ScimError.badRequest('invalidPath', `malformed path ${JSON.stringify(path)}`);
  const base = resolveAttrPath(view, text.slice(0, open), 'invalidPath');
  if (base.sub || !base.attribute.multiValued || !base.attribute.subAttributes) {
    throw ScimError.badRequest('invalidPath', `${JSON.stringify(path)}: a value filter needs a multi-valued complex attribute`);
  }
  const after = text.slice(close + 1);
  if (after && !after.startsWith('.')) throw ScimError.badRequest('invalidPath', `malformed path ${JSON.stringify(path)}`);
  const sub = after ? resolveSubPath(base.attribute, after.slice(1), 'invalidPath') : undefined;
  return { extension: base.extension, attribute: base.attribute, valueFilter: text.slice(open + 1, close), sub };
}

/** The attribute's container in a resource: the resource itself, or its extension object. */
export function containerOf(resource: Record<string, unknown>, extension: string | undefined, create: boolean): Record<string, unknown> | undefined {
  if (!extension) return resource;
  const existing = resource[extension];
  if (existing && typeof existing === 'object' && !Array.isArray(existing)) return existing as Record<string, unknown>;
  if (!create) return undefined;
  const made: Record<string, unknown> = {};
  resource[extension] = made;
  return made;
}
