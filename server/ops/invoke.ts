/**
 * The one pipeline every operation runs through, whatever the protocol: parse input, authenticate, run the
 * handler in a unit of work, shape the output. Transports build the OpContext, call invoke, apply the
 * effects their own way and map AppError kinds with their own table.
 */
import type { EntityManager } from '@mikro-orm/core';
import { AppError, runAfterRollback, toAppError } from '../kernel/errors.ts';
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
  // A property, not a named local: the bundle names every named closure it makes (build/bundle.ts
  // keepNames), which costs a property definition on each call of this function.
  const queue: { pending?: Array<() => Promise<void>>; afterCommit: AfterCommit } = {
    afterCommit: (task) => void (queue.pending ??= []).push(task),
  };
  const { afterCommit } = queue;
  // Every admin mutation leaves an audit entry (docs/api-overview.md#resources-and-fields, "AuditLog"): in its own transaction when it has
  // one, so the entry exists exactly when the change was committed; reads are not audited.
  const audited = op.admin && op.kind === 'mutation';
  let result: Record<string, unknown>;
  try {
    result = await runInUnitOfWork(op, ctx, input, afterCommit, audited);
  } catch (err) {
    await runAfterRollback(err, ctx.log);
    throw err;
  }
  if (audited && !(op.transaction ?? op.kind === 'mutation')) await insertAdminAudit(ctx, op.name, input, result);
  // Handlers that open their own transactions (transaction: false) have committed them by now too.
  if (queue.pending) for (const task of queue.pending) await task();
  return result;
}

/** The handler in a transaction of its own (mutations, unless they manage theirs) or a lazy unit of work. */
async function runInUnitOfWork(op: AnyOperation, ctx: OpContext, input: Record<string, unknown>, afterCommit: AfterCommit, audited: boolean): Promise<Record<string, unknown>> {
  if (!(op.transaction ?? op.kind === 'mutation')) return op.handler(input, withLazyUnitOfWork(ctx, afterCommit));
  return ctx.deps.storage.fork().transactional(async (txEm) => {
    const answer = await op.handler(input, { ...ctx, em: txEm, afterCommit });
    if (audited) recordAdminAudit(txEm, ctx, op.name, input, answer);
    return answer;
  });
}

/**
 * What a failed operation answers: an AppError, with anything unexpected logged in full and answered as a
 * generic internal error naming the request id (docs/errors.md#the-shape-on-each-protocol).
 */
export function refusalOf(op: AnyOperation, ctx: OpContext, err: unknown): AppError {
  const appError = toAppError(err, ctx.req.requestId);
  if (appError.kind === 'internal') {
    ctx.log.error({ err, op: op.name, requestId: ctx.req.requestId }, 'operation failed unexpectedly');
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
