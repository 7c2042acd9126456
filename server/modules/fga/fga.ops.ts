/**
 * The public permission operations (docs/operations.md#check_permissions and `list_permissions`).
 * They take user credentials, and super-admin credentials too (auth kind user_or_admin; then `user` names
 * the subject, subject.ts). Nothing here uses the
 * main database's unit of work: the FGA store may be elsewhere, so no transaction is held open around it.
 */
import { defineOperation } from '../../ops/define.ts';
import type { HandlerContext } from '../../ops/define.ts';
import {
  CheckPermissionsRequest, CheckPermissionsResponse, ListPermissionsRequest, ListPermissionsResponse,
} from './fga.schema.ts';
import { requireFga } from './fga.service.ts';
import { subjectOf } from './subject.ts';
import { checkAll, type CheckRun } from './permission-checks.ts';
import { listPermissions } from './list-permissions.ts';
import { fgaAdminOperations } from './fga-admin.ops.ts';
import { permissionCheckBudget } from '../../kernel/request-budget.ts';

/**
 * The checks budget of the transport request (shared by the root fields of one GraphQL document), or a
 * fresh one where a request carries a single operation (gRPC).
 */
function checkBudget(ctx: HandlerContext) {
  return ctx.permissionChecks ?? permissionCheckBudget();
}

/** Applies the subject rule and loads the current model (failed_precondition without one). */
async function prepareRun(ctx: HandlerContext, explicitUser: string | undefined): Promise<CheckRun> {
  const service = requireFga(ctx.deps);
  const subject = subjectOf(ctx.caller, explicitUser);
  const model = await service.requireModel();
  return { service, model, subject, engine: service.engineFor(model) };
}

export const checkPermissionsOp = defineOperation({
  name: 'check_permissions',
  admin: false,
  kind: 'query',
  description: 'Evaluates 1 to 100 permission checks for the caller; results echo each pair in order',
  input: CheckPermissionsRequest,
  output: CheckPermissionsResponse,
  auth: 'user_or_admin',
  transaction: false,
  handler: async (input, ctx) => {
    checkBudget(ctx).spend(input.checks.length);
    const run = await prepareRun(ctx, input.user);
    const allowed = await checkAll(run, input.checks, 'checks');
    return {
      results: input.checks.map((check, index) => ({ relation: check.relation, object: check.object, allowed: allowed[index]! })),
    };
  },
});

export const listPermissionsOp = defineOperation({
  name: 'list_permissions',
  admin: false,
  kind: 'query',
  description: 'Lists the permissions the caller holds, optionally narrowed by relation and object type; at most 1,000',
  input: ListPermissionsRequest,
  output: ListPermissionsResponse,
  auth: 'user_or_admin',
  transaction: false,
  handler: async (input, ctx) => {
    const run = await prepareRun(ctx, input.user);
    return listPermissions(run, { relation: input.relation || undefined, object_type: input.object_type || undefined }, checkBudget(ctx));
  },
});

export const fgaOperations = [checkPermissionsOp, listPermissionsOp, ...fgaAdminOperations];
