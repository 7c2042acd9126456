/**
 * The super-admin FGA operations (docs/operations.md `/v1/admin/fga/*`, docs/api-overview.md#states-and-transitions, "fga reset"). Paths
 * are the released API's (docs/operations.md), so they override the derived `/v1/admin/<name>`; GraphQL names are `_fga_*` and
 * gRPC methods `Fga*` as derived. No handler holds the main database's transaction: the FGA store may be a
 * separate database, and it keeps its own writes atomic.
 */
import { defineOperation } from '../../ops/define.ts';
import { NoInput, MessageResponse } from '../../ops/schema.ts';
import { AppError } from '../../kernel/errors.ts';
import type { Caller } from '../../kernel/context.ts';
import type { TupleKey } from './types.ts';
import {
  FgaExpandRequest, FgaExpandResponse, FgaListUsersRequest, FgaListUsersResponse, FgaModel,
  FgaReadTuplesRequest, FgaReadTuplesResponse, FgaTuplesRequest, FgaWriteModelRequest,
} from './fga.schema.ts';
import { requireFga, type LoadedModel } from './fga.service.ts';
import { validateTuple } from './model/validate-tuple.ts';
import { resolvePageSize } from './store/index.ts';

/** docs/operations.md: an empty store answers an empty model, not an error. */
function modelAnswer(model: LoadedModel | undefined): { id: string; dsl: string } {
  return { id: model?.id ?? '', dsl: model?.dsl ?? '' };
}

/** Only the fields of a tuple; conditions are not part of the operations' Tuple (docs/api-overview.md#resources-and-fields). */
function keysOf(tuples: readonly TupleKey[]): TupleKey[] {
  return tuples.map(({ user, relation, object }) => ({ user, relation, object }));
}

function validateAll(model: LoadedModel, tuples: readonly TupleKey[]): void {
  tuples.forEach((tuple, index) => {
    try {
      validateTuple(model.model, tuple);
    } catch (err) {
      if (err instanceof AppError) throw new AppError(err.kind, `tuples[${index}]: ${err.message}`, err.detail);
      throw err;
    }
  });
}

function describeCaller(caller: Caller): string {
  if (caller.kind === 'super_admin') return `super-admin (${caller.via})`;
  if (caller.kind === 'user') return `user ${caller.userId}`;
  return 'anonymous';
}

export const fgaReadModelOp = defineOperation({
  name: 'fga_read_model',
  admin: true,
  kind: 'query',
  description: 'Reads the current FGA model; an empty store answers an empty model',
  input: NoInput,
  output: FgaModel,
  auth: 'admin',
  rest: { method: 'GET', path: '/v1/admin/fga/model' },
  transaction: false,
  handler: async (_input, ctx) => modelAnswer(await requireFga(ctx.deps).currentModel()),
});

export const fgaWriteModelOp = defineOperation({
  name: 'fga_write_model',
  admin: true,
  kind: 'mutation',
  description: 'Writes a new FGA model version (OpenFGA DSL, schema 1.1); models are append-only and the newest is current',
  input: FgaWriteModelRequest,
  output: FgaModel,
  auth: 'admin',
  rest: { path: '/v1/admin/fga/model' },
  transaction: false,
  handler: async (input, ctx) => modelAnswer(await requireFga(ctx.deps).writeModel(input.dsl)),
});

export const fgaWriteTuplesOp = defineOperation({
  name: 'fga_write_tuples',
  admin: true,
  kind: 'mutation',
  description: 'Writes relationship tuples, all or none, validated against the current model',
  input: FgaTuplesRequest,
  output: MessageResponse,
  auth: 'admin',
  rest: { path: '/v1/admin/fga/tuples' },
  transaction: false,
  handler: async (input, ctx) => {
    const service = requireFga(ctx.deps);
    const model = await service.requireModel();
    const tuples = keysOf(input.tuples);
    validateAll(model, tuples);
    await service.store.writeTuples(tuples, []);
    return { message: `${tuples.length} tuple(s) written` };
  },
});

export const fgaDeleteTuplesOp = defineOperation({
  name: 'fga_delete_tuples',
  admin: true,
  kind: 'mutation',
  description: 'Deletes relationship tuples, all or none',
  input: FgaTuplesRequest,
  output: MessageResponse,
  auth: 'admin',
  rest: { path: '/v1/admin/fga/tuples/delete' },
  transaction: false,
  handler: async (input, ctx) => {
    const service = requireFga(ctx.deps);
    // A model must exist, but deletes are not held to its type restrictions: a tuple written under an
    // older model version must stay removable after the model changed.
    await service.requireModel();
    const tuples = keysOf(input.tuples);
    await service.store.writeTuples([], tuples);
    return { message: `${tuples.length} tuple(s) deleted` };
  },
});

export const fgaReadTuplesOp = defineOperation({
  name: 'fga_read_tuples',
  admin: true,
  kind: 'query',
  description: 'Reads stored tuples by user, relation and object filters, a page at a time',
  input: FgaReadTuplesRequest,
  output: FgaReadTuplesResponse,
  auth: 'admin',
  rest: { path: '/v1/admin/fga/tuples/read' },
  transaction: false,
  handler: async (input, ctx) => {
    const service = requireFga(ctx.deps);
    const filter = {
      ...(input.user ? { user: input.user } : {}),
      ...(input.relation ? { relation: input.relation } : {}),
      ...(input.object ? { object: input.object } : {}),
    };
    // OpenFGA's page size rule: absent or 0 is the default (50), else 1 to 100.
    const page = await service.store.read(filter, resolvePageSize(input.page_size), input.continuation_token || undefined);
    return { tuples: keysOf(page.tuples), continuation_token: page.continuation_token };
  },
});

export const fgaListUsersOp = defineOperation({
  name: 'fga_list_users',
  admin: true,
  kind: 'query',
  description: 'Lists the users of a type (or type#relation) that hold a relation on an object',
  input: FgaListUsersRequest,
  output: FgaListUsersResponse,
  auth: 'admin',
  rest: { path: '/v1/admin/fga/list_users' },
  transaction: false,
  handler: async (input, ctx) => {
    const service = requireFga(ctx.deps);
    const model = await service.requireModel();
    const [type, relation] = input.user_type.split('#', 2) as [string, string | undefined];
    if (!type || relation === '') throw AppError.invalid('user_type: expected type or type#relation');
    const { users } = await service.engineFor(model).listUsers({
      object: input.object,
      relation: input.relation,
      userFilters: [relation ? { type, relation } : { type }],
    });
    return { users };
  },
});

export const fgaExpandOp = defineOperation({
  name: 'fga_expand',
  admin: true,
  kind: 'query',
  description: 'Expands the userset tree of a relation on an object, as a JSON string',
  input: FgaExpandRequest,
  output: FgaExpandResponse,
  auth: 'admin',
  rest: { path: '/v1/admin/fga/expand' },
  transaction: false,
  handler: async (input, ctx) => {
    const service = requireFga(ctx.deps);
    const model = await service.requireModel();
    const { tree } = await service.engineFor(model).expand({ object: input.object, relation: input.relation });
    // OpenFGA's Expand shape, `{root: ...}`, serialised (docs/operations.md: "the userset tree as a JSON string").
    return { tree: JSON.stringify(tree) };
  },
});

export const fgaResetOp = defineOperation({
  name: 'fga_reset',
  admin: true,
  kind: 'mutation',
  description: 'Deletes the whole FGA store (models and versions); refused while any tuple exists',
  input: NoInput,
  output: MessageResponse,
  auth: 'admin',
  rest: { path: '/v1/admin/fga/reset' },
  transaction: false,
  handler: async (_input, ctx) => {
    const service = requireFga(ctx.deps);
    // docs/api-overview.md#states-and-transitions: refused while any tuple still exists; the store is then unchanged.
    const tuples = await service.store.countTuples();
    if (tuples > 0) throw AppError.precondition(`the FGA store still holds ${tuples} tuple(s): delete them before a reset`);
    await service.store.reset();
    // Audited (docs/operations.md). Until the audit log exists, the log line is the record; it names no secret.
    ctx.log.info({ audit: 'fga.reset', caller: describeCaller(ctx.caller), requestId: ctx.req.requestId, ip: ctx.req.ip }, 'FGA store reset');
    return { message: 'FGA store reset' };
  },
});

export const fgaAdminOperations = [
  fgaReadModelOp, fgaWriteModelOp, fgaWriteTuplesOp, fgaDeleteTuplesOp, fgaReadTuplesOp, fgaListUsersOp, fgaExpandOp, fgaResetOp,
];
