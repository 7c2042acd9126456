/**
 * The FGA section's server calls: the admin `_fga_*` operations (docs/operations.md `/v1/admin/fga/*`,
 * GraphQL names prefixed `_`) and the permission queries a super-admin may ask for any subject (docs/operations.md
 * `check_permissions` / `list_permissions` with an explicit `user`, honoured for super-admins, docs/api-overview.md#authentication).
 * There is no admin check operation: check_permissions with `user` is the server's own way to test one.
 * All go through the console's one GraphQL client, authenticated by the admin cookie.
 */
import { call, type Output } from '../../../ui-shared/contract/call.ts';
import type { Tuple } from '../../../ui-shared/contract/types.ts';

export type { Tuple };

/** Model version id and DSL; both empty on an empty store (docs/operations.md: not an error). */
export type FgaModel = Output<'fga_read_model'>;

/** The tuple browser's filter boxes, as typed (empty: any). */
export type TupleFilters = Tuple;

/** `continuation_token` is absent or empty on the last page. */
export type TuplePage = Output<'fga_read_tuples'>;

/** TanStack Query keys: every mutation invalidates the family it changes. */
export const fgaKeys = {
  all: ['fga'] as const,
  model: () => [...fgaKeys.all, 'model'] as const,
  tuples: () => [...fgaKeys.all, 'tuples'] as const,
  tuplePage: (filters: TupleFilters, pageSize: number, token: string) => [...fgaKeys.tuples(), filters, pageSize, token] as const,
};

export async function readModel(signal?: AbortSignal): Promise<FgaModel> {
  return call('fga_read_model', {}, signal);
}

/** Models are append-only versions (docs/operations.md): the server parses the DSL and refuses it with the problems listed. */
export async function writeModel(dsl: string): Promise<FgaModel> {
  return call('fga_write_model', { dsl });
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
  return call('fga_read_tuples', params, signal);
}

export async function writeTuples(tuples: Tuple[]): Promise<string> {
  return (await call('fga_write_tuples', { tuples })).message;
}

export async function deleteTuples(tuples: Tuple[]): Promise<string> {
  return (await call('fga_delete_tuples', { tuples })).message;
}

export interface CheckQuestion {
  user: string;
  relation: string;
  object: string;
  /** Apply to this check only and are never stored (docs/api-overview.md#resources-and-fields, PermissionCheckInput). */
  contextualTuples: Tuple[];
}

export async function checkPermission(question: CheckQuestion): Promise<boolean> {
  const check = {
    relation: question.relation,
    object: question.object,
    ...(question.contextualTuples.length > 0 ? { contextual_tuples: question.contextualTuples } : {}),
  };
  const answer = await call('check_permissions', { user: question.user, checks: [check] });
  return answer.results[0]?.allowed ?? false;
}

/** `truncated`: more than the server's cap of 1,000 entries exist (docs/operations.md). */
export type ObjectListing = Output<'list_permissions'>;

/** list_permissions narrowed to one relation on one type is OpenFGA's ListObjects for that subject. */
export async function listObjects(user: string, relation: string, type: string): Promise<ObjectListing> {
  return call('list_permissions', { user, relation, object_type: type });
}
