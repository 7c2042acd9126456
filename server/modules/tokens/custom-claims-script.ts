/**
 * --custom-access-token-script (specification part 1; reference.md "Tokens"): operator-supplied JavaScript,
 * a function `(user, tokenPayload) => extraClaims`, whose claims are added to the access token, never over a
 * reserved claim. A failing script is logged (names only, never claim values) and ignored, so logins go on.
 *
 * The script runs in node:vm inside one worker thread, with a time limit that covers its promise jobs too
 * (microtaskMode afterEvaluate). The worker keeps the event loop free while a script runs, and it contains
 * what a vm timeout cannot: a runaway promise chain interrupted under async hooks aborts the whole process
 * when it runs on the main thread. A watchdog terminates a worker that overruns and the next call starts a
 * new one; a memory cap bounds a script that allocates without end. The script sees JSON copies of the
 * public user and the payload, never the stored row. node:vm is not a security boundary against hostile
 * code; the script is the operator's own configuration, and this only keeps a buggy one from hurting logins.
 */
import { Worker } from 'node:worker_threads';
import type { Logger } from 'pino';
import { RESERVED_CLAIMS } from './claims.ts';

export const CUSTOM_SCRIPT_TIMEOUT_MS = 100;
/** Slack for the message round trip before the watchdog assumes the worker is stuck. */
const WATCHDOG_GRACE_MS = 400;

/** CommonJS source of the worker (an eval worker, so the single executable needs no extra file). */
const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
const vm = require('node:vm');
const OPTIONS = { filename: 'custom-access-token-script.js' };
const CALL = new vm.Script("'use strict'; JSON.stringify(__fn(JSON.parse(__user), JSON.parse(__payload)) ?? {})", OPTIONS);
const scripts = new Map();
// The source is a function expression (wrapped in parentheses, a newline before the closing one so that a
// trailing line comment cannot swallow it), or else a program whose completion value is the function.
function compile(source) {
  const trimmed = source.trim();
  try {
    return new vm.Script('(' + trimmed.replace(/;+\\s*$/, '') + '\\n)', OPTIONS);
  } catch {
    return new vm.Script(trimmed, OPTIONS);
  }
}
parentPort.on('message', ({ id, source, user, payload, timeout }) => {
  let script = scripts.get(source);
  if (!script) {
    try {
      script = compile(source);
    } catch (err) {
      parentPort.postMessage({ id, ok: false, compile: true, reason: String(err && err.message) });
      return;
    }
    scripts.set(source, script);
  }
  try {
    const context = vm.createContext({ __user: user, __payload: payload },
      { codeGeneration: { strings: false, wasm: false }, microtaskMode: 'afterEvaluate' });
    const fn = script.runInContext(context, { timeout, breakOnSigint: false });
    if (typeof fn !== 'function') throw new Error('the script does not evaluate to a function');
    context.__fn = fn;
    const out = CALL.runInContext(context, { timeout, breakOnSigint: false });
    parentPort.postMessage({ id, ok: true, out: typeof out === 'string' ? out : undefined });
  } catch (err) {
    parentPort.postMessage({ id, ok: false, reason: String((err && err.message) || err) });
  }
});
`;

type Outcome = { ok: true; out?: string } | { ok: false; compile?: boolean; reason: string };

interface Job {
  message: { source: string; user: string; payload: string; timeout: number };
  resolve: (outcome: Outcome) => void;
}

/**
 * One worker for the process, started on first use (only when a script is configured) and unreferenced when
 * idle so it never keeps the process alive. Jobs run one at a time, so each watchdog times its own job only.
 */
class ScriptWorker {
  private worker: Worker | undefined;
  private readonly queue: Job[] = [];
  private current: { id: number; job: Job; timer: NodeJS.Timeout } | undefined;
  private nextId = 1;

  run(message: Job['message']): Promise<Outcome> {
    return new Promise((resolve) => {
      this.queue.push({ message, resolve });
      this.pump();
    });
  }

  private spawn(): Worker {
    const worker = new Worker(WORKER_SOURCE, { eval: true, resourceLimits: { maxOldGenerationSizeMb: 64, maxYoungGenerationSizeMb: 16 } });
    worker.on('message', (reply: Outcome & { id: number }) => {
      if (!this.current || reply.id !== this.current.id) return;
      const { id: _id, ...outcome } = reply;
      this.finish(outcome);
    });
    const lost = (reason: string) => {
      if (this.worker !== worker) return;
      this.worker = undefined;
      this.finish({ ok: false, reason });
    };
    worker.on('error', (err) => lost(err.message));
    worker.on('exit', () => lost('the script worker stopped'));
    // After the listeners: attaching a message listener refs the worker's port again.
    worker.unref();
    return worker;
  }

  private pump(): void {
    if (this.current) return;
    const job = this.queue.shift();
    if (!job) return;
    this.worker ??= this.spawn();
    const id = this.nextId++;
    const timer = setTimeout(() => {
      // Overran even the vm limit (stuck outside the script's own evaluation): drop the worker.
      const stuck = this.worker;
      this.worker = undefined;
      void stuck?.terminate();
      this.finish({ ok: false, reason: `Script execution timed out after ${job.message.timeout}ms` });
    }, job.message.timeout + WATCHDOG_GRACE_MS);
    timer.unref();
    this.current = { id, job, timer };
    // Referenced only while a job is in flight: the caller awaits it, but an idle worker must not keep
    // the process alive.
    this.worker.ref();
    this.worker.postMessage({ id, ...job.message });
  }

  private finish(outcome: Outcome): void {
    const current = this.current;
    if (!current) return;
    clearTimeout(current.timer);
    this.current = undefined;
    if (this.queue.length === 0) this.worker?.unref();
    current.job.resolve(outcome);
    this.pump();
  }
}

let sharedWorker: ScriptWorker | undefined;
/** Sources already reported as not compiling, so a broken script is logged once, not at every login. */
const reportedCompileFailures = new Set<string>();

/** Runs the script; answers the claims it adds, without reserved ones. Never throws. */
export async function customClaims(
  source: string | undefined,
  user: unknown,
  payload: Record<string, unknown>,
  log: Logger,
): Promise<Record<string, unknown>> {
  if (!source?.trim()) return {};
  sharedWorker ??= new ScriptWorker();
  const outcome = await sharedWorker.run({ source, user: JSON.stringify(user), payload: JSON.stringify(payload), timeout: CUSTOM_SCRIPT_TIMEOUT_MS });
  if (!outcome.ok) {
    if (!outcome.compile) log.warn({ reason: outcome.reason }, '--custom-access-token-script failed; no custom claims added');
    else if (!reportedCompileFailures.has(source)) {
      reportedCompileFailures.add(source);
      log.error({ reason: outcome.reason }, '--custom-access-token-script does not compile; it is ignored');
    }
    return {};
  }
  let result: unknown;
  try {
    result = outcome.out === undefined ? undefined : JSON.parse(outcome.out);
  } catch {
    result = undefined;
  }
  if (result === null || typeof result !== 'object' || Array.isArray(result)) {
    log.warn('--custom-access-token-script did not return an object; no custom claims added');
    return {};
  }
  const extra: Record<string, unknown> = {};
  const refused: string[] = [];
  for (const [name, value] of Object.entries(result)) {
    if (RESERVED_CLAIMS.has(name)) refused.push(name);
    else extra[name] = value;
  }
  if (refused.length > 0) log.warn({ claims: refused }, '--custom-access-token-script may not set reserved claims; ignored them');
  return extra;
}
