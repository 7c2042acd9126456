/**
 * The AuthZEN PDP as operations (docs/authzen.md), so that GraphQL and gRPC answer the same decisions as the
 * spec's REST endpoints (authzen.endpoints.ts), which are the REST form: the operations are not served on a
 * second REST path. Read-only, outside any database transaction (the FGA store may be elsewhere).
 */
import { defineOperation, type HandlerContext } from '../../ops/define.ts';
import { permissionCheckBudget } from '../../kernel/request-budget.ts';
import {
  AuthzenActionSearchRequest, AuthzenActionSearchResponse, AuthzenDecision, AuthzenEntitySearchResponse, AuthzenEvaluationRequest,
  AuthzenEvaluationsRequest, AuthzenEvaluationsResponse, AuthzenResourceSearchRequest, AuthzenSubjectSearchRequest,
} from './authzen.schema.ts';
import { evaluateMany, evaluateOne, openPdp } from './evaluation.ts';
import { searchActions, searchResources, searchSubjects } from './search.ts';

/** The transport request's budget (shared by a GraphQL document's root fields), or a fresh one (gRPC). */
function budgetOf(ctx: HandlerContext) {
  return ctx.permissionChecks ?? permissionCheckBudget();
}

const common = { admin: false, kind: 'query', auth: 'pdp_client', transaction: false, rest: false } as const;

export const authzenEvaluationOp = defineOperation({
  ...common,
  name: 'authzen_evaluation',
  description: 'AuthZEN Access Evaluation: whether the subject may perform the action on the resource (POST /access/v1/evaluation over REST)',
  input: AuthzenEvaluationRequest,
  output: AuthzenDecision,
  handler: async (input, ctx) => evaluateOne(await openPdp(ctx.deps, ctx.caller), input, budgetOf(ctx)),
});

export const authzenEvaluationsOp = defineOperation({
  ...common,
  name: 'authzen_evaluations',
  description: 'AuthZEN Access Evaluations: up to 100 evaluations with top-level defaults and evaluations_semantic (POST /access/v1/evaluations over REST)',
  input: AuthzenEvaluationsRequest,
  output: AuthzenEvaluationsResponse,
  handler: async (input, ctx) => evaluateMany(await openPdp(ctx.deps, ctx.caller), input, budgetOf(ctx)),
});

export const authzenSearchSubjectOp = defineOperation({
  ...common,
  name: 'authzen_search_subject',
  description: 'AuthZEN Subject Search: the subjects of a type that may perform the action on the resource, paged (POST /access/v1/search/subject over REST)',
  input: AuthzenSubjectSearchRequest,
  output: AuthzenEntitySearchResponse,
  handler: async (input, ctx) => searchSubjects(await openPdp(ctx.deps, ctx.caller), input, budgetOf(ctx)),
});

export const authzenSearchResourceOp = defineOperation({
  ...common,
  name: 'authzen_search_resource',
  description: 'AuthZEN Resource Search: the resources of a type on which the subject may perform the action, paged (POST /access/v1/search/resource over REST)',
  input: AuthzenResourceSearchRequest,
  output: AuthzenEntitySearchResponse,
  handler: async (input, ctx) => searchResources(await openPdp(ctx.deps, ctx.caller), input, budgetOf(ctx)),
});

export const authzenSearchActionOp = defineOperation({
  ...common,
  name: 'authzen_search_action',
  description: 'AuthZEN Action Search: the actions (relations of the resource type) the subject may perform on the resource (POST /access/v1/search/action over REST)',
  input: AuthzenActionSearchRequest,
  output: AuthzenActionSearchResponse,
  handler: async (input, ctx) => searchActions(await openPdp(ctx.deps, ctx.caller), input, budgetOf(ctx)),
});

export const authzenOperations = [authzenEvaluationOp, authzenEvaluationsOp, authzenSearchSubjectOp, authzenSearchResourceOp, authzenSearchActionOp];
