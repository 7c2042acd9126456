/**
 * Contextual tuples (docs/api-overview.md#resources-and-fields; OpenFGA `contextual_tuples`): tuples that exist for one request only.
 * They are overlaid on the store's answers and never written. A contextual tuple equal to a stored one
 * (same object, relation and user) replaces it, so its condition is the one evaluated, as in OpenFGA where
 * contextual tuples take precedence over stored ones.
 */
import type { TupleKey, TupleSource } from '../types.ts';
import { objectType } from './tuple-strings.ts';

function tupleIdentity(tuple: TupleKey): string {
  return `${tuple.object}#${tuple.relation}@${tuple.user}`;
}

export function overlayContextualTuples(source: TupleSource, contextual: readonly TupleKey[]): TupleSource {
  if (contextual.length === 0) return source;
  const byObjectRelation = new Map<string, TupleKey[]>();
  const byTypeRelationUser = new Map<string, TupleKey[]>();
  const identities = new Set<string>();
  for (const tuple of contextual) {
    const identity = tupleIdentity(tuple);
    if (identities.has(identity)) continue;
    identities.add(identity);
    const a = `${tuple.object}#${tuple.relation}`;
    const b = `${objectType(tuple.object)}#${tuple.relation}@${tuple.user}`;
    byObjectRelation.set(a, [...(byObjectRelation.get(a) ?? []), tuple]);
    byTypeRelationUser.set(b, [...(byTypeRelationUser.get(b) ?? []), tuple]);
  }
  const merge = (stored: TupleKey[], extra: TupleKey[]): TupleKey[] =>
    extra.length === 0 ? stored : [...stored.filter((tuple) => !identities.has(tupleIdentity(tuple))), ...extra];

  return {
    async readObjectRelation(object, relation) {
      return merge(await source.readObjectRelation(object, relation), byObjectRelation.get(`${object}#${relation}`) ?? []);
    },
    async readByUsers(type, relation, users) {
      const extra = users.flatMap((user) => byTypeRelationUser.get(`${type}#${relation}@${user}`) ?? []);
      return merge(await source.readByUsers(type, relation, users), extra);
    },
    ...(source.readObjectRelations
      ? {
          readObjectRelations: async (type: string, relation: string, ids: readonly string[]) => {
            const extra = ids.flatMap((id) => byObjectRelation.get(`${type}:${id}#${relation}`) ?? []);
            return merge(await source.readObjectRelations!(type, relation, ids), extra);
          },
        }
      : {}),
  };
}
