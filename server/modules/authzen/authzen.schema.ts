/**
 * The AuthZEN Authorization API 1.0 messages as operation schemas (docs/authzen.md): the same shapes the
 * REST endpoints read and answer, so GraphQL and gRPC carry the same fields. Entities (AuthZEN 1.0 section 5)
 * keep `properties` as free-form objects; the relationship engine does not read them (docs/authzen.md#mapping).
 * Unknown fields are dropped, as receivers must ignore them (AuthZEN 1.0 section 10.1.1).
 */
import { s } from '../../ops/schema.ts';
import { MAX_CHECKS } from '../fga/index.ts';

/** Evaluations per batch: the permission-check budget of one request (docs/limits.md, "Checks per request"). */
export const MAX_EVALUATIONS = MAX_CHECKS;
/** Results one search can list; beyond it the answer says `truncated` in its context. */
export const MAX_SEARCH_RESULTS = 1000;
/** Results per page when the request sets no `page.limit` (or 0). */
export const DEFAULT_PAGE_LIMIT = 50;

const text = (description: string) => s.string({ minLength: 1, maxLength: 512, description });

/** A Subject or Resource (AuthZEN 1.0 sections 5.1 and 5.2); `id` is omitted for the entity a search lists. */
export const AuthzenEntityInput = s.object('AuthzenEntityInput', {
  type: text('the entity type: an FGA type of the model'),
  id: s.optional(s.string({ maxLength: 512, description: 'the id within the type; omitted for the type a search lists' })),
  properties: s.optional(s.map({ description: 'attributes; accepted and not read by the relationship engine' })),
});

/** An Action (AuthZEN 1.0 section 5.3): its name is an FGA relation. */
export const AuthzenActionInput = s.object('AuthzenActionInput', {
  name: text('the action: a relation of the resource type'),
  properties: s.optional(s.map({ description: 'attributes; accepted and not read by the relationship engine' })),
});

const contextField = () => s.optional(s.map({ description: 'the environment (AuthZEN 1.0 section 5.4): the condition context of the check' }));

export const AuthzenEvaluationRequest = s.object('AuthzenEvaluationRequest', {
  subject: AuthzenEntityInput,
  action: AuthzenActionInput,
  resource: AuthzenEntityInput,
  context: contextField(),
});

/** A Decision (AuthZEN 1.0 section 5.5). */
export const AuthzenDecision = s.object('AuthzenDecision', {
  decision: s.boolean(),
  context: s.optional(s.map({ description: 'why, for a denial the PDP explains (a stopped batch, an evaluation in error)' })),
});

export const AuthzenEvaluationItem = s.object('AuthzenEvaluationItem', {
  subject: s.optional(AuthzenEntityInput),
  action: s.optional(AuthzenActionInput),
  resource: s.optional(AuthzenEntityInput),
  context: contextField(),
});

export const AuthzenEvaluationsOptions = s.object('AuthzenEvaluationsOptions', {
  evaluations_semantic: s.optional(s.string({ maxLength: 64, description: 'execute_all (default), deny_on_first_deny or permit_on_first_permit' })),
});

/** AuthZEN 1.0 section 7.1: top-level defaults, each evaluation overriding them. */
export const AuthzenEvaluationsRequest = s.object('AuthzenEvaluationsRequest', {
  subject: s.optional(AuthzenEntityInput),
  action: s.optional(AuthzenActionInput),
  resource: s.optional(AuthzenEntityInput),
  context: contextField(),
  evaluations: s.optional(s.list(AuthzenEvaluationItem, { maxItems: MAX_EVALUATIONS })),
  options: s.optional(AuthzenEvaluationsOptions),
});

/** AuthZEN 1.0 section 7.2; without `evaluations` in the request the answer is a single `decision`. */
export const AuthzenEvaluationsResponse = s.object('AuthzenEvaluationsResponse', {
  decision: s.optional(s.boolean()),
  evaluations: s.optional(s.list(AuthzenDecision)),
});

/** AuthZEN 1.0 section 8.2.1. */
export const AuthzenPageRequest = s.object('AuthzenPageRequest', {
  token: s.optional(s.string({ maxLength: 2048, description: 'the next_token of the previous page' })),
  limit: s.optional(s.int({ minimum: 0, maximum: MAX_SEARCH_RESULTS, description: `results per page, 1 to ${MAX_SEARCH_RESULTS}; absent or 0 means ${DEFAULT_PAGE_LIMIT}` })),
});

/** AuthZEN 1.0 section 8.2.2: next_token is empty on the last page. */
export const AuthzenPage = s.object('AuthzenPage', {
  next_token: s.string(),
  count: s.int(),
  total: s.optional(s.int()),
});

const page = () => s.optional(AuthzenPageRequest);

/** AuthZEN 1.0 section 8.4.1: the subject's type is listed, its id ignored. */
export const AuthzenSubjectSearchRequest = s.object('AuthzenSubjectSearchRequest', {
  subject: AuthzenEntityInput,
  action: AuthzenActionInput,
  resource: AuthzenEntityInput,
  context: contextField(),
  page: page(),
});

/** AuthZEN 1.0 section 8.5.1: the resource's type is listed, its id ignored. */
export const AuthzenResourceSearchRequest = s.object('AuthzenResourceSearchRequest', {
  subject: AuthzenEntityInput,
  action: AuthzenActionInput,
  resource: AuthzenEntityInput,
  context: contextField(),
  page: page(),
});

/** AuthZEN 1.0 section 8.6.1: no action. */
export const AuthzenActionSearchRequest = s.object('AuthzenActionSearchRequest', {
  subject: AuthzenEntityInput,
  resource: AuthzenEntityInput,
  context: contextField(),
  page: page(),
});

export const AuthzenEntity = s.object('AuthzenEntity', {
  type: s.string(),
  id: s.string(),
});

export const AuthzenAction = s.object('AuthzenAction', {
  name: s.string(),
});

/** AuthZEN 1.0 section 8.3, for subjects and resources. */
export const AuthzenEntitySearchResponse = s.object('AuthzenEntitySearchResponse', {
  page: AuthzenPage,
  context: s.optional(s.map()),
  results: s.list(AuthzenEntity),
});

/** AuthZEN 1.0 section 8.3, for actions. */
export const AuthzenActionSearchResponse = s.object('AuthzenActionSearchResponse', {
  page: AuthzenPage,
  context: s.optional(s.map()),
  results: s.list(AuthzenAction),
});
