/**
 * A tuple as stored: the object and user split into their parts so both read paths of the engine are
 * index lookups (object type + id + relation; object type + relation + user). `userRelation` is '' for a
 * plain user or a wildcard, never NULL, so the unique key over the whole tuple holds on every database
 * (NULLs are distinct in unique indexes). The column limits keep that key within MySQL's 3072-byte index
 * limit in utf8mb4; a longer part is refused as invalid_argument before it reaches a database.
 */
import { FGA_ERROR, fgaError } from '../model/fga-errors.ts';
import { describeTuple, parseObject, parseUser } from '../model/identifiers.ts';
import type { TupleKey } from '../types.ts';

export const COLUMN_LIMITS = {
  objectType: 64,
  objectId: 192,
  relation: 50,
  userType: 64,
  userId: 192,
  userRelation: 50,
  conditionName: 255,
} as const;

/** The identifying parts of a stored tuple (the unique key). */
export interface TupleParts {
  objectType: string;
  objectId: string;
  relation: string;
  userType: string;
  userId: string;
  userRelation: string;
}

export interface TupleRowData extends TupleParts {
  conditionName: string | null;
  conditionContext: Record<string, unknown> | null;
}

/** Splits a tuple into columns; refuses (2000) malformed parts and parts longer than their column. */
export function tupleToParts(tuple: TupleKey): TupleRowData {
  const object = typeof tuple?.object === 'string' ? parseObject(tuple.object) : undefined;
  const user = typeof tuple?.user === 'string' ? parseUser(tuple.user) : undefined;
  const relation = tuple?.relation;
  if (!object || !user || typeof relation !== 'string' || relation === '') {
    throw fgaError(FGA_ERROR.validation, `malformed tuple '${describeTuple(tuple ?? {})}': expected object type:id, a relation and user type:id, type:* or type:id#relation`);
  }
  const row: TupleRowData = {
    objectType: object.type,
    objectId: object.id,
    relation,
    userType: user.type,
    userId: user.id,
    userRelation: user.relation ?? '',
    conditionName: tuple.condition?.name ? tuple.condition.name : null,
    conditionContext: tuple.condition?.name && tuple.condition.context ? structuredClone(tuple.condition.context) : null,
  };
  for (const [column, limit] of Object.entries(COLUMN_LIMITS) as [keyof typeof COLUMN_LIMITS, number][]) {
    const value = row[column];
    if (typeof value === 'string' && value.length > limit) {
      throw fgaError(FGA_ERROR.validation, `tuple '${describeTuple(tuple)}' cannot be stored: its ${column} is longer than ${limit} characters`);
    }
  }
  return row;
}

export function partsToTuple(row: TupleRowData): TupleKey {
  const user = row.userRelation ? `${row.userType}:${row.userId}#${row.userRelation}` : `${row.userType}:${row.userId}`;
  const tuple: TupleKey = { user, relation: row.relation, object: `${row.objectType}:${row.objectId}` };
  if (row.conditionName) {
    tuple.condition = row.conditionContext ? { name: row.conditionName, context: structuredClone(row.conditionContext) } : { name: row.conditionName };
  }
  return tuple;
}

/** One string per tuple identity (condition excluded, as in OpenFGA). */
export function partsKey(parts: TupleParts): string {
  return JSON.stringify([parts.objectType, parts.objectId, parts.relation, parts.userType, parts.userId, parts.userRelation]);
}

export function keyParts(parts: TupleParts): TupleParts {
  return {
    objectType: parts.objectType,
    objectId: parts.objectId,
    relation: parts.relation,
    userType: parts.userType,
    userId: parts.userId,
    userRelation: parts.userRelation,
  };
}

export interface WriteBatch {
  writes: TupleRowData[];
  deletes: TupleRowData[];
}

/**
 * Parses a write/delete batch and refuses a tuple that appears twice in it (in writes, in deletes, or in
 * both), as OpenFGA does (cannot_allow_duplicate_tuples_in_one_request, 2004).
 */
export function prepareBatch(writes: readonly TupleKey[], deletes: readonly TupleKey[]): WriteBatch {
  const seen = new Set<string>();
  const parse = (tuples: readonly TupleKey[]) =>
    tuples.map((tuple) => {
      const row = tupleToParts(tuple);
      const key = partsKey(row);
      if (seen.has(key)) throw fgaError(FGA_ERROR.duplicateTuplesInRequest, `tuple '${describeTuple(tuple)}' appears more than once in the request`);
      seen.add(key);
      return row;
    });
  return { writes: parse(writes), deletes: parse(deletes) };
}

export function alreadyExists(row: TupleRowData) {
  return fgaError(FGA_ERROR.writeFailedDueToInvalidInput, `cannot write tuple '${describeTuple(partsToTuple(row))}': it already exists`);
}

export function doesNotExist(row: TupleRowData) {
  return fgaError(FGA_ERROR.writeFailedDueToInvalidInput, `cannot delete tuple '${describeTuple(partsToTuple(row))}': it does not exist`);
}
