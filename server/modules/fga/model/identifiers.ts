/**
 * The string forms of OpenFGA identifiers (schema 1.1), parsed once here so validation, stores and the
 * engine agree on them:
 *
 * - object: `type:id` (one `:`, no `#`, no whitespace; the id may not be the wildcard `*`);
 * - user: `type:id`, the typed wildcard `type:*`, or the userset `type:id#relation`;
 * - relation: 1 to 50 characters without `:`, `#`, `@` or whitespace.
 *
 * Length limits follow OpenFGA's API (object 256, user 512, relation 50 characters); type names follow
 * its pattern `^[^:#@\s]{1,254}$`.
 */

export const MAX_OBJECT_LENGTH = 256;
export const MAX_USER_LENGTH = 512;
export const MAX_RELATION_LENGTH = 50;
export const MAX_TYPE_LENGTH = 254;
export const WILDCARD = '*';

export interface ParsedObject {
  type: string;
  id: string;
}

export interface ParsedUser {
  type: string;
  /** `*` for a typed wildcard. */
  id: string;
  /** Set for a userset (`group:eng#member`). */
  relation?: string;
  wildcard: boolean;
}

const TYPE_PATTERN = /^[^:#@\s]+$/;
const ID_PATTERN = /^[^:#\s]+$/;
const RELATION_PATTERN = /^[^:#@\s]+$/;

export function isValidTypeName(type: string): boolean {
  return type.length > 0 && type.length <= MAX_TYPE_LENGTH && TYPE_PATTERN.test(type);
}

export function isValidRelationName(relation: string): boolean {
  return relation.length > 0 && relation.length <= MAX_RELATION_LENGTH && RELATION_PATTERN.test(relation);
}

function splitTypeId(value: string): ParsedObject | undefined {
  const colon = value.indexOf(':');
  if (colon < 0) return undefined;
  const type = value.slice(0, colon);
  const id = value.slice(colon + 1);
  if (!isValidTypeName(type) || !ID_PATTERN.test(id)) return undefined;
  return { type, id };
}

/** `type:id`, or undefined when malformed (including the wildcard id, which names no single object). */
export function parseObject(object: string): ParsedObject | undefined {
  if (typeof object !== 'string' || object.length > MAX_OBJECT_LENGTH) return undefined;
  const parsed = splitTypeId(object);
  return parsed && parsed.id !== WILDCARD ? parsed : undefined;
}

/** `type:id`, `type:*` or `type:id#relation`, or undefined when malformed. */
export function parseUser(user: string): ParsedUser | undefined {
  if (typeof user !== 'string' || user.length > MAX_USER_LENGTH) return undefined;
  const hash = user.indexOf('#');
  const objectPart = hash < 0 ? user : user.slice(0, hash);
  const relation = hash < 0 ? undefined : user.slice(hash + 1);
  const parsed = splitTypeId(objectPart);
  if (!parsed) return undefined;
  const wildcard = parsed.id === WILDCARD;
  if (relation !== undefined) {
    // A userset names one object's relation; `type:*#relation` is not a form OpenFGA accepts.
    if (wildcard || !isValidRelationName(relation)) return undefined;
    return { type: parsed.type, id: parsed.id, relation, wildcard: false };
  }
  return { type: parsed.type, id: parsed.id, wildcard };
}

export function formatUser(user: ParsedUser): string {
  return user.relation ? `${user.type}:${user.id}#${user.relation}` : `${user.type}:${user.id}`;
}

/** OpenFGA's way of printing a tuple in messages: `object#relation@user`. */
export function describeTuple(tuple: { user?: unknown; relation?: unknown; object?: unknown }): string {
  const part = (value: unknown) => (typeof value === 'string' ? value : '');
  return `${part(tuple.object)}#${part(tuple.relation)}@${part(tuple.user)}`;
}
