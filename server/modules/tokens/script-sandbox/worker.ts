/**
 * Entry of the sandbox worker thread (started by script-worker.ts): runs one job at a time in QuickJS
 * (quickjs-run.ts) and answers its outcome. From source it is started as this file; in the bundle
 * build/bundle.ts compiles it into one CommonJS string that is started as an eval worker.
 */
import { parentPort } from 'node:worker_threads';
import { loadQuickJS, runInQuickJS, SandboxBroken, type ScriptJob } from './quickjs-run.ts';

const port = parentPort;
if (!port) throw new Error('the custom claims sandbox runs only as a worker thread');

// Loading fails only if the engine cannot start; the rejection ends the worker with an 'error' event.
void loadQuickJS().then(() => port.postMessage({ ready: true }));

port.on('message', (message: ScriptJob & { id: number }) => {
  const { id, ...job } = message;
  runInQuickJS(job).then(
    (outcome) => port.postMessage({ id, ...outcome }),
    (err: unknown) => {
      // The WebAssembly module itself failed (an engine assertion aborts it for good): answer with what the
      // script came to, then end this worker so that the next call starts a fresh one with a fresh module.
      const outcome = err instanceof SandboxBroken ? err.outcome : { ok: false, reason: `the script sandbox failed: ${String(err)}` };
      port.postMessage({ id, ...outcome, broken: true });
      process.exit(1);
    },
  );
});
