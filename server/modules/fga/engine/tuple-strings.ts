/**
 * The string forms of OpenFGA's tuple parts, split once so the resolvers never parse by hand:
 * an object is `type:id`; a user is an object, a typed wildcard `type:*`, or a userset `type:id#relation`.
 * The request shapes are validated by the model module before they reach the engine; these helpers only
 * split, and stay total on odd input (no throw) so a stored tuple written under an older model cannot crash
 * a resolver.
 */

export interface ObjectRef {
  type: string;
  id: string;
}

export type UserRef =
  | { kind: 'object'; type: string; id: string }
  | { kind: 'wildcard'; type: string }
  | { kind: 'userset'; type: string; id: string; relation: string };

export const WILDCARD_ID = '*';

export function splitObject(object: string): ObjectRef {
  const colon = object.indexOf(':');
  if (colon < 0) return { type: object, id: '' };
  return { type: object.slice(0, colon), id: object.slice(colon + 1) };
}

export function objectType(object: string): string {
  const colon = object.indexOf(':');
  return colon < 0 ? object : object.slice(0, colon);
}

export function parseUser(user: string): UserRef {
  const hash = user.lastIndexOf('#');
  if (hash >= 0) {
    const { type, id } = splitObject(user.slice(0, hash));
    return { kind: 'userset', type, id, relation: user.slice(hash + 1) };
  }
  const { type, id } = splitObject(user);
  if (id === WILDCARD_ID) return { kind: 'wildcard', type };
  return { kind: 'object', type, id };
}

/** The type of a user string: `user` for `user:1`, `user:*` and `group` for `group:1#member`. */
export function userType(user: string): string {
  return objectType(user);
}

/** The relation of a userset user, or '' for an object or wildcard. */
export function userRelation(user: string): string {
  const hash = user.lastIndexOf('#');
  return hash < 0 ? '' : user.slice(hash + 1);
}

/** The object part of a user (`group:1` for `group:1#member`). */
export function userObject(user: string): string {
  const hash = user.lastIndexOf('#');
  return hash < 0 ? user : user.slice(0, hash);
}

export function wildcardOf(type: string): string {
  return `${type}:${WILDCARD_ID}`;
}

export function usersetOf(object: string, relation: string): string {
  return `${object}#${relation}`;
}

/** A stable key for one check sub-problem: `object#relation@user`. */
export function checkKey(object: string, relation: string, user: string): string {
  return `${object}#${relation}@${user}`;
}
