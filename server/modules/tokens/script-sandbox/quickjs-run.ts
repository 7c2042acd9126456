/**
 * Runs --custom-access-token-script in QuickJS compiled to WebAssembly: a separate JavaScript engine whose
 * whole heap lives in the WebAssembly memory, so nothing of the host (process, require, the host's Function
 * constructor, Node's globals) exists inside it. node:vm shares one V8 heap with its host, which is why
 * `this.constructor.constructor('return process')()` escapes it (Node documentation: "The node:vm module is
 * not a security mechanism"). OWASP ASVS 4.0.3 5.2.4: dynamic code execution that cannot be avoided is
 * sandboxed.
 *
 * Per call: a fresh runtime and context (about a millisecond, see script-worker.ts) under a memory cap, a
 * stack limit and an interrupt handler that ends the evaluation at the deadline; no host function
 * is exposed (no console, timers, module loader). Only two JSON strings go in, parsed inside; only a JSON
 * string comes out. Every handle is disposed before its runtime (QuickJS asserts on a leak when a runtime
 * is freed, which aborts the whole WebAssembly module).
 *
 * This file runs inside the sandbox worker (worker.ts); it is plain code so that it can also be driven directly.
 */
import {
  newQuickJSWASMModuleFromVariant,
  newVariant,
  type QuickJSContext,
  type QuickJSHandle,
  type QuickJSSyncVariant,
  type QuickJSWASMModule,
} from 'quickjs-emscripten-core';
// Static import of the single-file variant: the WebAssembly is inlined in this CommonJS file, so esbuild
// bundles it and the single executable needs no .wasm file beside it (no dynamic import() either).
import variantExports from '@jitl/quickjs-singlefile-cjs-release-sync';

export interface ScriptJob {
  source: string;
  /** JSON of the public user. */
  user: string;
  /** JSON of the token payload. */
  payload: string;
  timeout: number;
}

export type Outcome = { ok: true; out?: string } | { ok: false; compile?: boolean; reason: string };

/**
 * The memory cap. QuickJS's own limit (JS_SetMemoryLimit) turned out to bound single allocations only in this
 * build: its running total counts a few bytes per block, and measured, a loop of 1 MiB ArrayBuffers under a
 * 16 MiB limit went on to 2 GiB. So the cap is the WebAssembly memory itself: the engine's static data and
 * stack live in the first 16 MiB (the build's initial size), and it may grow to 32 MiB, which leaves a
 * script about 16 MiB of heap; past it malloc fails and QuickJS throws "out of memory" (measured: 25 ms to
 * reach it with 1 MiB buffers). Jobs run one at a time in a worker and each runtime is freed after its
 * call, so the whole headroom belongs to the running script.
 */
const WASM_INITIAL_PAGES = 256;
const WASM_MAXIMUM_PAGES = 512;
/** Still set: it refuses any single allocation larger than this at once. */
const MEMORY_LIMIT_BYTES = 16 * 1024 * 1024;
/**
 * Promise jobs a script may queue (a claims script needs a handful); beyond it the script fails. Small
 * enough that running them all takes a few milliseconds on a busy machine, so an endless chain always meets
 * this bound before the 100 ms deadline and fails the same way every time.
 */
const MAX_PROMISE_JOBS = 1_000;
/**
 * Stack for the interpreter, about 1,500 nested calls. WebAssembly frames also use the host thread's own
 * stack: measured, a 512 KiB limit let V8's stack overflow first on the main thread (unwinding through the
 * engine, which then aborts on free); at 256 KiB QuickJS raises its own "stack overflow" with ample margin.
 */
const MAX_STACK_BYTES = 256 * 1024;
const FILENAME = 'custom-access-token-script.js';

/**
 * Evaluated first in every context. The isolate is the boundary; this only refuses code generation from
 * strings (eval, Function and its async/generator siblings) inside it, as the node:vm version did
 * (OWASP ASVS 4.0 5.2.4: no dynamic code execution). The constructors stay reachable only as `refuse`.
 */
const PRELUDE = `(() => {
  'use strict';
  function refuse() { throw new EvalError('code generation from strings is disabled in the custom claims script'); }
  const lock = (object, name, value) => Object.defineProperty(object, name, { value, writable: false, enumerable: false, configurable: false });
  for (const fn of [function () {}, async function () {}, function* () {}, async function* () {}]) {
    lock(Object.getPrototypeOf(fn), 'constructor', refuse);
  }
  refuse.prototype = Function.prototype;
  lock(globalThis, 'Function', refuse);
  lock(globalThis, 'eval', refuse);
})()`;

/**
 * The call itself, built before the script runs so that it holds the original JSON functions: the script
 * sees parsed copies, and its result leaves as one JSON string (a promise result stringifies to {}).
 */
const CALL = `(() => {
  'use strict';
  const { parse, stringify } = JSON;
  return (fn, user, payload) => {
    if (typeof fn !== 'function') throw new TypeError('the script does not evaluate to a function');
    return stringify(fn(parse(user), parse(payload)) ?? {});
  };
})()`;

/** Reads a thrown value inside the isolate: its own getters cannot throw out of it or run past the deadline. */
const DESCRIBE_ERROR = `(error) => {
  try {
    return error instanceof Error ? String(error.name) + ': ' + String(error.message) : 'the script threw a non-Error value';
  } catch {
    return 'the script threw an unreadable error';
  }
}`;

let quickjs: Promise<QuickJSWASMModule> | undefined;
/** One WebAssembly module per worker, created on first use only (the worker starts only when a script is set). */
export function loadQuickJS(): Promise<QuickJSWASMModule> {
  if (quickjs) return quickjs;
  // Node's ESM loader and esbuild both hand over module.exports ({ default: variant }) as the default import.
  const exported = variantExports as unknown as { default?: QuickJSSyncVariant };
  const base = exported.default ?? (variantExports as unknown as QuickJSSyncVariant);
  const capped = newVariant(base, {
    wasmMemory: async () => new WebAssembly.Memory({ initial: WASM_INITIAL_PAGES, maximum: WASM_MAXIMUM_PAGES }),
    // The engine's C stdout/stderr (an abort message) go nowhere: no output channel from inside, and the
    // failure is reported through the outcome instead.
    // (Emscripten reads `print` and `printErr` from the module object; the typings list only some fields.)
    emscriptenModule: { print: () => {}, printErr: () => {} } as Record<string, unknown>,
  });
  quickjs = newQuickJSWASMModuleFromVariant(capped);
  return quickjs;
}

type Form = { ok: true; code: string } | { ok: false; reason: string };
/** How each source compiles; one source is configured in practice, so the bound only guards tests and reloads. */
const forms = new Map<string, Form>();

/**
 * The script forms node:vm accepted: a function expression (wrapped in parentheses, a newline before the
 * closing one so that a trailing line comment cannot swallow it), or else a program whose completion value
 * is the function. Compiled without running, so a syntax error is told apart from a runtime failure.
 */
function formOf(ctx: QuickJSContext, source: string): Form {
  const known = forms.get(source);
  if (known) return known;
  const trimmed = source.trim();
  let form: Form | undefined;
  let reason = '';
  for (const code of [`(${trimmed.replace(/;+\s*$/, '')}\n)`, trimmed]) {
    const compiled = ctx.evalCode(code, FILENAME, { compileOnly: true });
    if (compiled.error) {
      reason = describe(ctx, compiled.error);
      compiled.error.dispose();
      continue;
    }
    compiled.value.dispose();
    form = { ok: true, code };
    break;
  }
  form ??= { ok: false, reason };
  // A compilation cut by the deadline or the memory cap says nothing about the source: not remembered.
  if (form.ok || !/^InternalError: /.test(reason)) {
    if (forms.size >= 32) forms.clear();
    forms.set(source, form);
  }
  return form;
}

function describe(ctx: QuickJSContext, error: QuickJSHandle): string {
  const reader = ctx.evalCode(DESCRIBE_ERROR, FILENAME);
  if (reader.error) {
    reader.error.dispose();
    return 'the script failed';
  }
  try {
    const described = ctx.callFunction(reader.value, ctx.undefined, error);
    if (described.error) {
      // Only an uncatchable interrupt or out-of-memory gets here.
      described.error.dispose();
      return 'the script failed';
    }
    try {
      return ctx.typeof(described.value) === 'string' ? ctx.getString(described.value) : 'the script failed';
    } finally {
      described.value.dispose();
    }
  } finally {
    reader.value.dispose();
  }
}

/** Evaluates `code` and answers its value's handle (to dispose), or the failure's description. */
function evaluate(ctx: QuickJSContext, code: string): { handle: QuickJSHandle } | { reason: string } {
  const result = ctx.evalCode(code, FILENAME, { type: 'global' });
  if (result.error) {
    const reason = describe(ctx, result.error);
    result.error.dispose();
    return { reason };
  }
  return { handle: result.value };
}

function execute(ctx: QuickJSContext, job: ScriptJob): Outcome {
  const form = formOf(ctx, job.source);
  if (!form.ok) return { ok: false, compile: true, reason: form.reason };
  const owned: QuickJSHandle[] = [];
  try {
    const prelude = evaluate(ctx, PRELUDE);
    if ('reason' in prelude) return { ok: false, reason: prelude.reason };
    owned.push(prelude.handle);
    const call = evaluate(ctx, CALL);
    if ('reason' in call) return { ok: false, reason: call.reason };
    owned.push(call.handle);
    const fn = evaluate(ctx, form.code);
    if ('reason' in fn) return { ok: false, reason: fn.reason };
    owned.push(fn.handle);
    const user = ctx.newString(job.user);
    owned.push(user);
    const payload = ctx.newString(job.payload);
    owned.push(payload);
    const result = ctx.callFunction(call.handle, ctx.undefined, fn.handle, user, payload);
    if (result.error) {
      const reason = describe(ctx, result.error);
      result.error.dispose();
      return { ok: false, reason };
    }
    owned.push(result.value);
    const out = ctx.typeof(result.value) === 'string' ? ctx.getString(result.value) : undefined;
    // Promise jobs the script queued run now, inside the same deadline (as node:vm's microtaskMode
    // 'afterEvaluate' did), and only so many of them: an endless promise chain used to race the deadline
    // against the memory cap, and an out-of-memory inside a job only rejects that job's promise, so the
    // script's returned claims went through whenever the cap came first. A bound makes it fail every time.
    const jobs = ctx.runtime.executePendingJobs(MAX_PROMISE_JOBS);
    if (jobs.error) {
      const reason = describe(ctx, jobs.error);
      jobs.error.dispose();
      return { ok: false, reason };
    }
    if (ctx.runtime.hasPendingJob()) return { ok: false, reason: `the script queued more than ${MAX_PROMISE_JOBS} promise jobs` };
    return { ok: true, out };
  } finally {
    for (const handle of owned.reverse()) handle.dispose();
  }
}

/**
 * The engine failed while freeing a runtime: QuickJS asserts that nothing is left when a runtime is freed,
 * and some out-of-memory paths inside the engine leave objects behind. The assertion aborts the WebAssembly
 * module for good, so its worker must end (worker.ts); `outcome` is what the script itself came to.
 */
export class SandboxBroken extends Error {
  readonly outcome: Outcome;
  constructor(outcome: Outcome, cause: unknown) {
    super(`the script sandbox failed: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.outcome = outcome;
  }
}

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** Runs one job in a fresh runtime. Never throws for what the script does; throws SandboxBroken (above). */
export async function runInQuickJS(job: ScriptJob): Promise<Outcome> {
  const module = await loadQuickJS();
  const runtime = module.newRuntime();
  const deadline = performance.now() + job.timeout;
  let timedOut = false;
  let outcome: Outcome;
  let ctx: QuickJSContext | undefined;
  try {
    runtime.setMemoryLimit(MEMORY_LIMIT_BYTES);
    runtime.setMaxStackSize(MAX_STACK_BYTES);
    // QuickJS polls this every few thousand operations and inside long regular-expression matches.
    runtime.setInterruptHandler(() => (timedOut ||= performance.now() > deadline));
    ctx = runtime.newContext();
    outcome = execute(ctx, job);
  } catch (err) {
    // The host side of the engine threw (out of memory while creating a handle, for one).
    outcome = { ok: false, reason: `the script sandbox failed: ${message(err)}` };
  }
  // An interrupted promise job only rejects its promise (the queue then drains "successfully"), so the flag,
  // not the outcome, says whether the deadline was reached.
  if (timedOut) outcome = { ok: false, reason: `Script execution timed out after ${job.timeout}ms` };
  try {
    ctx?.dispose();
    runtime.dispose();
  } catch (err) {
    throw new SandboxBroken(outcome, err);
  }
  return outcome;
}
