/**
 * The embedded FGA engine (docs/api-overview.md#what-portcullis-does). `createEngine({ model, source })` answers:
 *
 * - `check({ user, relation, object, contextualTuples? })` -> `{ allowed }`
 * - `listObjects({ user, type, relation, contextualTuples?, maxResults? })` -> `{ objects, truncated }`
 * - `listUsers({ object, relation, userFilters: [{ type, relation? }], contextualTuples?, maxResults? })`
 *   -> `{ users, truncated }` (`user:1`, `user:*`, `group:1#member`)
 * - `expand({ object, relation })` -> `{ tree: { root } }` in OpenFGA's Expand shape (JSON-serialisable)
 *
 * Errors are AppError invalid_argument carrying OpenFGA's code in `detail.fgaCode` (2000, 2021, 2022, 2027
 * from validation; 2002 "resolution too complex" past the depth limit).
 */
export {
  createEngine,
  MAX_CONTEXTUAL_TUPLES,
  type Engine,
  type EngineOptions,
  type CheckQuery,
  type ListObjectsQuery,
  type ListUsersQuery,
  type ExpandQuery,
} from './engine.ts';
export type { ListObjectsResult } from './list-objects.ts';
export type { ListUsersResult, UserFilter } from './list-users.ts';
export type { ExpandNode, ExpandResult } from './expand.ts';
export { DEFAULT_MAX_DEPTH, DEFAULT_CONCURRENCY, FGA_CODE_RESOLUTION_TOO_COMPLEX, isResolutionTooComplex } from './limits.ts';
