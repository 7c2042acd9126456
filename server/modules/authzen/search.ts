/**
 * The Search APIs (AuthZEN 1.0 section 8) over the FGA engine, each a question the engine answers
 * transitively, as section 8.1 recommends (through groups, usersets and tuple-to-userset rewrites):
 *
 * - Resource search (8.5): the engine's list objects, the resources of `resource.type` on which the subject
 *   holds the relation `action.name`;
 * - Subject search (8.4): the engine's list users, the subjects of `subject.type` holding the relation on the
 *   resource; a grant to every user of the type (`user:*`) is listed as id `*`;
 * - Action search (8.6): one check per relation of the resource's type in the current model, the relations
 *   the subject holds; the model's relations are the whole set of actions, so the answer is exact.
 *
 * Results are sorted (ids, or relations in model order) so that pages are stable while the data does not
 * change (page-token.ts). A search lists at most MAX_SEARCH_RESULTS; beyond that the answer's context says
 * `truncated`. Each search counts against the request's permission-check budget (docs/limits.md): one unit
 * for a listing, one per relation for an action search, as list_permissions counts its pairs.
 */
import { AppError } from '../../kernel/errors.ts';
import type { RequestBudget } from '../../kernel/request-budget.ts';
import { parseUser } from '../fga/index.ts';
import { MAX_SEARCH_RESULTS } from './authzen.schema.ts';
import { decide, type Pdp } from './evaluation.ts';
import { conditionContext, entityType, fgaObject, fgaRelation, fgaUser, type ActionInput, type EntityInput } from './mapping.ts';
import { pageOf, type Page, type PageRequest } from './page-token.ts';

interface SearchRequest extends Record<string, unknown> {
  subject: EntityInput;
  resource: EntityInput;
  context?: Record<string, unknown>;
  page?: PageRequest;
}

export interface SearchAnswer<T> {
  page: Page;
  context?: Record<string, unknown>;
  results: T[];
}

function answer<T>(all: readonly T[], request: SearchRequest, truncated: boolean): SearchAnswer<T> {
  const { page, results } = pageOf(all, request, !truncated);
  return truncated ? { page, context: { truncated: true }, results } : { page, results };
}

/** The relations of `type` in the current model, in model order; an unknown type is the caller's mistake. */
function relationsOf(pdp: Pdp, type: string): string[] {
  const definition = pdp.model.model.type_definitions.find((candidate) => candidate.type === type);
  if (!definition) throw AppError.invalid(`resource.type: type '${type}' is not defined in the model`);
  return Object.keys(definition.relations ?? {});
}

function requireRelation(pdp: Pdp, type: string, relation: string): void {
  if (!relationsOf(pdp, type).includes(relation)) throw AppError.invalid(`action.name: '${relation}' is not a relation of type '${type}'`);
}

function idOf(typed: string): string {
  return typed.slice(typed.indexOf(':') + 1);
}

const byId = (a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** AuthZEN 1.0 section 8.5: resources of `resource.type` the subject may act on; `resource.id` is ignored. */
export async function searchResources(pdp: Pdp, request: SearchRequest & { action: ActionInput }, budget: RequestBudget): Promise<SearchAnswer<{ type: string; id: string }>> {
  const user = fgaUser(request.subject);
  const relation = fgaRelation(request.action);
  const type = entityType(request.resource, 'resource');
  requireRelation(pdp, type, relation);
  budget.spend(1);
  const listed = await pdp.engine.listObjects({ user, type, relation, maxResults: MAX_SEARCH_RESULTS, context: conditionContext(request.context) });
  const results = [...new Set(listed.objects)].map((object) => ({ type, id: idOf(object) })).sort(byId);
  return answer(results, request, listed.truncated);
}

/** AuthZEN 1.0 section 8.4: subjects of `subject.type` that may act on the resource; `subject.id` is ignored. */
export async function searchSubjects(pdp: Pdp, request: SearchRequest & { action: ActionInput }, budget: RequestBudget): Promise<SearchAnswer<{ type: string; id: string }>> {
  const type = entityType(request.subject, 'subject');
  const relation = fgaRelation(request.action);
  const object = fgaObject(request.resource);
  requireRelation(pdp, request.resource.type, relation);
  budget.spend(1);
  const listed = await pdp.engine.listUsers({
    object, relation, userFilters: [{ type }], maxResults: MAX_SEARCH_RESULTS, context: conditionContext(request.context),
  });
  const results = [...new Set(listed.users)]
    .map((user) => parseUser(user))
    .filter((user) => user !== undefined && user.type === type && !user.relation)
    .map((user) => ({ type, id: user!.id }))
    .sort(byId);
  return answer(results, request, listed.truncated);
}

/** AuthZEN 1.0 section 8.6: the relations of the resource's type the subject holds on it. */
export async function searchActions(pdp: Pdp, request: SearchRequest, budget: RequestBudget): Promise<SearchAnswer<{ name: string }>> {
  const user = fgaUser(request.subject);
  const object = fgaObject(request.resource);
  const relations = relationsOf(pdp, request.resource.type);
  budget.spend(Math.min(relations.length, budget.limit));
  const context = conditionContext(request.context);
  const held: { name: string }[] = [];
  for (const relation of relations) {
    if (await decide(pdp, { user, relation, object, context }, `action ${relation}`)) held.push({ name: relation });
  }
  return answer(held, request, false);
}
