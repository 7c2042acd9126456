import { defineEntity, p } from '@mikro-orm/core';
import { EXACT_COLLATION } from '../../../storage/orm-options.ts';

/**
 * One relationship tuple (docs/api-overview.md#resources-and-fields), split into columns (tuple-rows.ts) for the engine's two read
 * paths, each one index:
 *
 * - (objectType, objectId, relation), every tuple on one object's relation (check, expand, list users):
 *   the leading columns of the unique key `fga_tuples_key`, which covers the whole tuple identity (a
 *   condition is an attribute, not part of it, as in OpenFGA), so no separate index is kept for it;
 * - `fga_tuples_by_user`: (userType, userId, userRelation, objectType, relation), the tuples that name
 *   given users on one object type's relation (list objects), and reads filtered by user. The user columns
 *   lead so that no planner can mistake it for the object path: right after a bulk load, before the
 *   database has statistics, PostgreSQL picked an index led by (objectType, relation) for the object path
 *   and scanned every tuple of the type.
 *
 * Identifiers compare exactly (EXACT_COLLATION: utf8mb4_bin on MySQL/MariaDB), since OpenFGA
 * ids are case-sensitive. `id` is a sortable id: reads page through tuples in write order.
 */
export const FgaTuple = defineEntity({
  name: 'FgaTuple',
  tableName: 'fga_tuples',
  properties: {
    id: p.string().primary().length(26),
    objectType: p.string().length(64).collation(EXACT_COLLATION),
    objectId: p.string().length(192).collation(EXACT_COLLATION),
    relation: p.string().length(50).collation(EXACT_COLLATION),
    userType: p.string().length(64).collation(EXACT_COLLATION),
    userId: p.string().length(192).collation(EXACT_COLLATION),
    userRelation: p.string().length(50).collation(EXACT_COLLATION),
    conditionName: p.string().length(255).nullable(),
    conditionContext: p.json<Record<string, unknown>>().nullable(),
    createdAt: p.datetime(),
  },
  indexes: [
    { name: 'fga_tuples_by_user', properties: ['userType', 'userId', 'userRelation', 'objectType', 'relation'] },
  ],
  uniques: [{ name: 'fga_tuples_key', properties: ['objectType', 'objectId', 'relation', 'userType', 'userId', 'userRelation'] }],
});

export type FgaTupleRow = InstanceType<typeof FgaTuple.class>;
