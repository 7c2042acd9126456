/**
 * The engine: check, list objects, list users and expand over one authorization model
 * and one tuple source. An engine is meant for one request (or one batch, such as check_permissions'
 * 1-100 checks): it keeps that request's read memo and check cache, so concurrent checks of a batch share
 * sub-problems, and a write is seen by the next request. A call with contextual tuples gets its own reader
 * and cache, since its answers hold only for that call.
 *
 * Requests are validated against the model first (model/validate-requests.ts: OpenFGA's 2000/2021/2022
 * codes) and contextual tuples as tuples (2027), so every caller gets the same errors.
 */
import type { AuthorizationModel, TupleKey, TupleSource } from '../types.ts';
import { AppError } from '../../../kernel/errors.ts';
import { validateCheckRequest, validateExpandRequest, validateListObjectsRequest, validateListUsersRequest } from '../model/validate-requests.ts';
import { validateTuple } from '../model/validate-tuple.ts';
import { indexModel, type ModelIndex } from './model-index.ts';
import { createRequestReader, type RequestReader } from './reads.ts';
import { overlayContextualTuples } from './overlay.ts';
import { CachedCheckResolver } from './cache.ts';
import { ThrottlingCheckResolver } from './throttle.ts';
import { LocalChecker, rootCheck, type CheckResolver } from './check.ts';
import { listObjects, type ListObjectsResult } from './list-objects.ts';
import { listUsers, type ListUsersResult, type UserFilter } from './list-users.ts';
import { expand, type ExpandResult } from './expand.ts';
import { DEFAULT_CONCURRENCY, DEFAULT_MAX_CONCURRENT_READS, DEFAULT_MAX_DEPTH, DEFAULT_THROTTLE_THRESHOLD, positiveInteger } from './limits.ts';
import type { RequestContext } from './conditions.ts';

export interface EngineOptions {
  model: AuthorizationModel;
  source: TupleSource;
  /** Levels of userset / tuple-to-userset hops before "resolution too complex" (default 25). */
  maxDepth?: number;
  /** Sub-problems one fan-out starts at once (default 10). */
  concurrency?: number;
  /** Store reads in flight at once for this engine (default 50). */
  maxConcurrentReads?: number;
}

/** At most this many contextual tuples per call (OpenFGA's limit). */
export const MAX_CONTEXTUAL_TUPLES = 100;

interface PerCall {
  contextualTuples?: readonly TupleKey[];
  /** Request context for conditions (see conditions.ts). */
  context?: RequestContext;
}

export interface CheckQuery extends PerCall {
  user: string;
  relation: string;
  object: string;
}

export interface ListObjectsQuery extends PerCall {
  user: string;
  type: string;
  relation: string;
  maxResults?: number;
}

export interface ListUsersQuery extends PerCall {
  object: string;
  relation: string;
  userFilters: readonly UserFilter[];
  maxResults?: number;
}

export interface ExpandQuery {
  object: string;
  relation: string;
}

export interface Engine {
  check(query: CheckQuery): Promise<{ allowed: boolean }>;
  listObjects(query: ListObjectsQuery): Promise<ListObjectsResult>;
  listUsers(query: ListUsersQuery): Promise<ListUsersResult>;
  expand(query: ExpandQuery): Promise<ExpandResult>;
}

interface Scope {
  index: ModelIndex;
  reader: RequestReader;
  head: CheckResolver;
  concurrency: number;
  maxDepth: number;
  context?: RequestContext;
}

export function createEngine(options: EngineOptions): Engine {
  const index = indexModel(options.model);
  const maxDepth = positiveInteger(options.maxDepth, DEFAULT_MAX_DEPTH, 'maxDepth');
  const concurrency = positiveInteger(options.concurrency, DEFAULT_CONCURRENCY, 'concurrency');
  const maxReads = positiveInteger(options.maxConcurrentReads, DEFAULT_MAX_CONCURRENT_READS, 'maxConcurrentReads');

  /**
   * The resolver chain, behind one interface: the per-request cache, then the throttle, then the local
   * checker, whose hops go back to the head (so every hop is cached and counted).
   */
  function buildScope(source: TupleSource, context: RequestContext | undefined): Scope {
    const reader = createRequestReader(source, index, maxReads);
    const local = new LocalChecker({ index, reader, maxDepth, concurrency, context });
    const head = new CachedCheckResolver(new ThrottlingCheckResolver(local, DEFAULT_THROTTLE_THRESHOLD));
    local.delegate = head;
    return { index, reader, head, concurrency, maxDepth, context };
  }

  let shared: Scope | undefined;
  function scopeFor(call: PerCall): Scope {
    const contextual = call.contextualTuples ?? [];
    if (contextual.length > MAX_CONTEXTUAL_TUPLES) {
      throw AppError.invalid(`at most ${MAX_CONTEXTUAL_TUPLES} contextual tuples are allowed, got ${contextual.length}`);
    }
    for (const tuple of contextual) validateTuple(options.model, tuple, { contextual: true });
    if (contextual.length === 0 && call.context === undefined) return (shared ??= buildScope(options.source, undefined));
    return buildScope(overlayContextualTuples(options.source, contextual), call.context);
  }

  return {
    async check(query) {
      validateCheckRequest(options.model, query);
      const scope = scopeFor(query);
      const outcome = await rootCheck(scope.head, query.object, query.relation, query.user);
      return { allowed: outcome.allowed };
    },
    async listObjects(query) {
      validateListObjectsRequest(options.model, query);
      return listObjects(query, scopeFor(query));
    },
    async listUsers(query) {
      validateListUsersRequest(options.model, query);
      return listUsers(query, scopeFor(query));
    },
    async expand(query) {
      validateExpandRequest(options.model, query);
      return expand(query, scopeFor({}));
    },
  };
}
