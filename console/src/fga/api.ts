/**
 * The FGA section's server calls: the admin `_fga_*` operations (specification part 4.2 `/v1/admin/fga/*`,
 * GraphQL names prefixed `_`) and the permission queries a super-admin may ask for any subject (part 4.1
 * `check_permissions` / `list_permissions` with an explicit `user`, honoured for super-admins, part 5).
 * There is no admin check operation: check_permissions with `user` is the server's own way to test one.
 * All go through the console's one GraphQL client, authenticated by the admin cookie.
 */
import { graphql } from '../../../ui-shared/graphql-client.ts';

export interface Tuple {
  user: string;
  relation: string;
  object: string;
}

export interface FgaModel {
  /** Model version id; empty on an empty store (part 4.2: not an error). */
  id: string;
  dsl: string;
}

export interface TupleFilters {
  user: string;
  relation: string;
  object: string;
}

export interface TuplePage {
  tuples: Tuple[];
  /** Absent or empty on the last page. */
  continuation_token?: string | null;
}

/** TanStack Query keys: every mutation invalidates the family it changes. */
export const fgaKeys = {
  all: ['fga'] as const,
  model: () => [...fgaKeys.all, 'model'] as const,
  tuples: () => [...fgaKeys.all, 'tuples'] as const,
  tuplePage: (filters: TupleFilters, pageSize: number, token: string) => [...fgaKeys.tuples(), filters, pageSize, token] as const,
};

export async function readModel(signal?: AbortSignal): Promise<FgaModel> {
  const data = await graphql<{ _fga_read_model: FgaModel }>('query FgaModel { _fga_read_model { id dsl } }', {}, signal);
  return data._fga_read_model;
}

/** Models are append-only versions (part 4.2): the server parses the DSL and refuses it with the problems listed. */
export async function writeModel(dsl: string): Promise<FgaModel> {
  const data = await graphql<{ _fga_write_model: FgaModel }>(
    'mutation FgaWriteModel($dsl: String!) { _fga_write_model(params: { dsl: $dsl }) { id dsl } }',
    { dsl },
  );
  return data._fga_write_model;
}

/** Empty filters are left out: the server reads an absent filter as "any". */
function presentFilters(filters: TupleFilters): Partial<TupleFilters> {
  const present: Partial<TupleFilters> = {};
  for (const key of ['user', 'relation', 'object'] as const) {
    const value = filters[key].trim();
    if (value) present[key] = value;
  }
  return present;
}

export async function readTuples(filters: TupleFilters, pageSize: number, token: string, signal?: AbortSignal): Promise<TuplePage> {
  const params = { ...presentFilters(filters), page_size: pageSize, ...(token ? { continuation_token: token } : {}) };
  const data = await graphql<{ _fga_read_tuples: TuplePage }>(
    'query FgaReadTuples($params: FgaReadTuplesRequest!) { _fga_read_tuples(params: $params) { tuples { user relation object } continuation_token } }',
    { params },
    signal,
  );
  return data._fga_read_tuples;
}

export async function writeTuples(tuples: Tuple[]): Promise<string> {
  const data = await graphql<{ _fga_write_tuples: { message: string } }>(
    'mutation FgaWriteTuples($tuples: [TupleInput!]!) { _fga_write_tuples(params: { tuples: $tuples }) { message } }',
    { tuples },
  );
  return data._fga_write_tuples.message;
}

export async function deleteTuples(tuples: Tuple[]): Promise<string> {
  const data = await graphql<{ _fga_delete_tuples: { message: string } }>(
    'mutation FgaDeleteTuples($tuples: [TupleInput!]!) { _fga_delete_tuples(params: { tuples: $tuples }) { message } }',
    { tuples },
  );
  return data._fga_delete_tuples.message;
}

export interface CheckQuestion {
  user: string;
  relation: string;
  object: string;
  /** Apply to this check only and are never stored (part 2, PermissionCheckInput). */
  contextualTuples: Tuple[];
}

export async function checkPermission(question: CheckQuestion): Promise<boolean> {
  const check = {
    relation: question.relation,
    object: question.object,
    ...(question.contextualTuples.length > 0 ? { contextual_tuples: question.contextualTuples } : {}),
  };
  const data = await graphql<{ check_permissions: { results: { allowed: boolean }[] } }>(
    'query FgaCheck($params: CheckPermissionsRequest!) { check_permissions(params: $params) { results { relation object allowed } } }',
    { params: { user: question.user, checks: [check] } },
  );
  return data.check_permissions.results[0]?.allowed ?? false;
}

export interface ObjectListing {
  objects: string[];
  /** More than the server's cap of 1,000 entries exist (part 4.1). */
  truncated: boolean;
}

/** list_permissions narrowed to one relation on one type is OpenFGA's ListObjects for that subject. */
export async function listObjects(user: string, relation: string, type: string): Promise<ObjectListing> {
  const data = await graphql<{ list_permissions: ObjectListing }>(
    'query FgaListObjects($params: ListPermissionsRequest!) { list_permissions(params: $params) { objects truncated } }',
    { params: { user, relation, object_type: type } },
  );
  return data.list_permissions;
}
