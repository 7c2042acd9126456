/**
 * The one pipeline every operation runs through, whatever the protocol: parse input, authenticate, run the
 * handler in a unit of work, shape the output. Transports build the OpContext, call invoke, apply the
 * effects their own way and map AppError kinds with their own table.
 */
import type { EntityManager } from '@mikro-orm/core';
import { AppError, logConverted, runAfterRollback, toAppError } from '../kernel/errors.ts';
import type { OpContext } from '../kernel/context.ts';
import type { AnyOperation, HandlerContext } from './define.ts';
import { parseInput, shapeOutput } from './validate.ts';
import { insertAdminAudit, recordAdminAudit } from '../modules/audit/admin-audit.ts';

type AfterCommit = HandlerContext['afterCommit'];

/** Where a lazy context keeps the unit of work it forked (not enumerable: a spread of the context skips it). */
const FORKED = Symbol('forked unit of work');

type LazyContext = HandlerContext & { [FORKED]?: EntityManager };

/**
 * The `em` of a context outside a transaction: an accessor own property (kernel/context.ts inTransaction
 * tells it from a transaction's by that), shared by every context instead of a getter written into each
 * one, which made V8 build each context on its slow path (about 2 us a call).
 */
const LAZY_UNIT_OF_WORK: PropertyDescriptor = {
  enumerable: true,
  configurable: true,
  get(this: LazyContext): EntityManager {
    const forked = this[FORKED];
    if (forked) return forked;
    const em = this.deps.storage.fork();
    Object.defineProperty(this, FORKED, { value: em });
    return em;
  },
};

/**
 * The handler's context outside a transaction. Its unit of work is forked on first use only: a read that
 * is answered from memory (token validation with the token state cache) never pays for an ORM fork and its
 * identity map. Every read of `em` in one operation sees the same fork.
 */
function withLazyUnitOfWork(ctx: OpContext, afterCommit: AfterCommit): HandlerContext {
  return Object.defineProperty({ ...ctx, afterCommit }, 'em', LAZY_UNIT_OF_WORK) as HandlerContext;
}

/**
 * Authenticates the caller and runs the handler on an input that already matches the operation's input
 * schema (parseInput's result, or what a transport proved equal to it), then the after-commit work.
 * Answers the handler's result as it is: shaping it to the output schema is the caller's step.
 */
export async function runHandler(op: AnyOperation, ctx: OpContext, input: Record<string, unknown>): Promise<Record<string, unknown>> {
  const authenticator = ctx.deps.authenticators[op.auth];
  if (!authenticator) throw new Error(`no authenticator is wired for auth kind ${op.auth} (operation ${op.name})`);
  ctx.caller = await authenticator(ctx);
  const transaction = op.transaction ?? op.kind === 'mutation';
  // Every admin mutation leaves an audit entry (docs/api-overview.md#resources-and-fields, "AuditLog"): in its own transaction when it has
  // one, so the entry exists exactly when the change was committed; reads are not audited.
  if (!(op.admin && op.kind === 'mutation')) return runUnitOfWork(ctx, transaction, (handlerCtx) => op.handler(input, handlerCtx));
  if (!transaction) {
    return runUnitOfWork(ctx, false, (handlerCtx) => op.handler(input, handlerCtx), (result) => insertAdminAudit(ctx, op.name, input, result));
  }
  return runUnitOfWork(ctx, true, async (handlerCtx) => {
    const answer = await op.handler(input, handlerCtx);
    recordAdminAudit(handlerCtx.em, ctx, op.name, input, answer);
    return answer;
  });
}

/**
 * The unit of work every operation and every endpoint (ops/endpoint.ts) runs in: `work` in a transaction of
 * its own, or with a unit of work forked on first use; on failure the refusal's afterRollback work
 * (kernel/errors.ts); on success `settle` (work that needs the result but no transaction), then the
 * after-commit queue in order. Handlers that open their own transactions have committed them by then too.
 */
export async function runUnitOfWork<T>(
  ctx: OpContext,
  transaction: boolean,
  work: (handlerCtx: HandlerContext) => Promise<T>,
  settle?: (result: T) => Promise<void>,
): Promise<T> {
  // A property, not a named local: the bundle names every named closure it makes (build/bundle.ts
  // keepNames), which costs a property definition on each call of this function.
  const queue: { pending?: Array<() => Promise<void>>; afterCommit: AfterCommit } = {
    afterCommit: (task) => void (queue.pending ??= []).push(task),
  };
  const { afterCommit } = queue;
  let result: T;
  try {
    result = transaction
      ? await ctx.deps.storage.fork().transactional((txEm) => work({ ...ctx, em: txEm, afterCommit }))
      : await work(withLazyUnitOfWork(ctx, afterCommit));
  } catch (err) {
    await runAfterRollback(err, ctx.log);
    throw err;
  }
  if (settle) await settle(result);
  if (queue.pending) for (const task of queue.pending) await task();
  return result;
}

/**
 * What a failed operation (or endpoint, ops/endpoint.ts) answers: an AppError, with anything unexpected logged in full and answered as a
 * generic internal error naming the request id (docs/errors.md#the-shape-on-each-protocol).
 */
export function refusalOf(op: { readonly name: string }, ctx: OpContext, err: unknown): AppError {
  const appError = toAppError(err, ctx.req.requestId);
  if (appError !== err) {
    logConverted(ctx.log, err, appError, { op: op.name, requestId: ctx.req.requestId }, 'operation failed unexpectedly');
  } else {
    ctx.log.debug({ op: op.name, kind: appError.kind, msg: appError.message }, 'operation refused');
  }
  return appError;
}

export async function invoke(op: AnyOperation, ctx: OpContext, rawInput: unknown): Promise<Record<string, unknown>> {
  try {
    const input = parseInput<Record<string, unknown>>(op.input, rawInput);
    return shapeOutput<Record<string, unknown>>(op.output, await runHandler(op, ctx, input));
  } catch (err) {
    throw refusalOf(op, ctx, err);
  }
}

/** Refusal for an operation that exists but is not carried by the calling protocol (docs/operations.md). */
export function notOnThisProtocol(op: AnyOperation, protocol: string): AppError {
  const where = [op.restRoute ? 'REST' : '', op.grpcMethod ? 'gRPC' : '', 'GraphQL'].filter(Boolean).join(', ');
  return new AppError('unimplemented', `operation ${op.name} is not available over ${protocol}; use ${where}`);
}
