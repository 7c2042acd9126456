/**
 * Case-insensitive filters that work on every driver (types.ts rule 8). SQL `ilike` exists only on
 * PostgreSQL and SQLite has no REGEXP, so SQL kinds compare `lower(column)` with a lower-cased value
 * (LIKE with an explicit escape character for "contains"); MongoDB gets an anchored or free regular
 * expression with the `i` flag. Both escape the user's text, so `%`, `_` or `.*` match literally.
 * Note: SQLite's lower() folds ASCII letters only.
 *
 * Usage: em.find(User, { $or: [containsIgnoreCase(em, User, 'email', q), containsIgnoreCase(em, User, 'givenName', q)] })
 */
import { raw, type EntityManager, type EntityName, type ObjectQuery } from '@mikro-orm/core';

const LIKE_ESCAPE = '!';

function escapeLike(text: string): string {
  return text.replace(/[!%_]/g, (c) => LIKE_ESCAPE + c);
}

/**
 * MongoDB's entity manager is the only one with aggregate(); testing for it avoids loading the MongoDB
 * driver package just to ask (drivers load lazily, see orm-options.ts).
 */
function isMongo(em: EntityManager): boolean {
  return typeof (em as unknown as { aggregate?: unknown }).aggregate === 'function';
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function columnOf(em: EntityManager, entity: EntityName<object>, property: string): string {
  const prop = em.getMetadata().find(entity)?.properties[property as never] as { fieldNames?: string[] } | undefined;
  const column = prop?.fieldNames?.[0];
  if (!column) throw new Error(`case-insensitive filter: unknown property "${property}"`);
  return em.getPlatform().quoteIdentifier(column);
}

function filter<T extends object>(
  em: EntityManager,
  entity: EntityName<T>,
  property: string,
  value: string,
  mode: 'equals' | 'contains',
): ObjectQuery<T> {
  if (isMongo(em)) {
    const source = escapeRegExp(value);
    return { [property]: new RegExp(mode === 'equals' ? `^${source}$` : source, 'i') } as ObjectQuery<T>;
  }
  const column = columnOf(em, entity as EntityName<object>, property);
  const lowered = value.toLowerCase();
  const condition =
    mode === 'equals'
      ? raw((alias: string) => `lower(${alias}.${column}) = ?`, [lowered])
      : raw((alias: string) => `lower(${alias}.${column}) like ? escape '${LIKE_ESCAPE}'`, [`%${escapeLike(lowered)}%`]);
  return { [condition]: [] } as ObjectQuery<T>;
}

/** Rows whose `property` equals `value` ignoring letter case. */
export function equalsIgnoreCase<T extends object>(em: EntityManager, entity: EntityName<T>, property: string, value: string): ObjectQuery<T> {
  return filter(em, entity, property, value, 'equals');
}

/** Rows whose `property` contains `value` ignoring letter case. */
export function containsIgnoreCase<T extends object>(em: EntityManager, entity: EntityName<T>, property: string, value: string): ObjectQuery<T> {
  return filter(em, entity, property, value, 'contains');
}
