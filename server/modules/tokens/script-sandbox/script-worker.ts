/**
 * The thread the custom claims script runs on. QuickJS's interrupt handler bounds the script's own
 * bytecode, but it is polled only between operations: a native built-in can run long without a poll.
 * Measured on the main thread before the memory cap: a trivial script 0.6 ms and `while (true) {}` cut at
 * 100-111 ms, but `for (;;) a.push(new Array(1e5).fill(1))` ran 4 to 11 s with a single poll. The cap
 * (quickjs-run.ts) now ends that in about 20 ms, yet a script may still hold the thread for its whole
 * 100 ms at every login, and nothing proves every built-in polls. So the isolate stays in a worker: the event
 * loop keeps serving meanwhile, and a watchdog terminates a worker that overruns the deadline (V8 stops
 * WebAssembly too); the next call starts a new one. Measured through the worker: first call 260 ms (thread
 * start and QuickJS load), then 1.5 ms per trivial call, `while (true) {}` 101-115 ms, the 1 MiB-buffer hog
 * 2-25 ms.
 */
import { Worker } from 'node:worker_threads';
import type { Outcome, ScriptJob } from './quickjs-run.ts';
import { sandboxWorkerScript } from './worker-script.ts';

/** Slack for the message round trip before the watchdog assumes the worker is stuck in a native built-in. */
const WATCHDOG_GRACE_MS = 400;

interface Job {
  message: ScriptJob;
  resolve: (outcome: Outcome) => void;
}

/**
 * One worker for the process, started on first use (only when a script is configured) and unreferenced when
 * idle so it never keeps the process alive. Jobs run one at a time, so each watchdog times its own job only.
 */
export class ScriptWorker {
  private worker: Worker | undefined;
  private readonly queue: Job[] = [];
  private current: { id: number; job: Job; timer?: NodeJS.Timeout } | undefined;
  /** Whether the current worker has loaded QuickJS; the watchdog times the script, not the worker's start. */
  private ready = false;
  private nextId = 1;

  run(message: ScriptJob): Promise<Outcome> {
    return new Promise((resolve) => {
      this.queue.push({ message, resolve });
      this.pump();
    });
  }

  private spawn(): Worker {
    const { script, eval: isEval } = sandboxWorkerScript();
    // The V8 heap of the worker holds only the QuickJS glue and messages; the script's heap is WebAssembly
    // memory, bounded by QuickJS's own limit (quickjs-run.ts). The thread's stack also carries the
    // WebAssembly frames: 4 MiB leaves a wide margin over QuickJS's own 256 KiB stack limit.
    const worker = new Worker(script, { eval: isEval, resourceLimits: { maxOldGenerationSizeMb: 64, maxYoungGenerationSizeMb: 16, stackSizeMb: 4 } });
    this.ready = false;
    worker.on('message', (reply: (Outcome & { id: number; broken?: true }) | { ready: true }) => {
      if ('ready' in reply) {
        if (this.worker !== worker) return;
        this.ready = true;
        this.startWatchdog();
        return;
      }
      if (!this.current || reply.id !== this.current.id) return;
      const { id: _id, broken, ...outcome } = reply;
      // The worker's engine is gone and the thread is ending: the next job goes to a new worker.
      if (broken && this.worker === worker) this.worker = undefined;
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
    this.current = { id, job };
    if (this.ready) this.startWatchdog();
    // Referenced only while a job is in flight: the caller awaits it, but an idle worker must not keep
    // the process alive.
    this.worker.ref();
    this.worker.postMessage({ id, ...job.message });
  }

  private startWatchdog(): void {
    const current = this.current;
    if (!current || current.timer) return;
    const { timeout } = current.job.message;
    current.timer = setTimeout(() => {
      // Overran even the interrupt handler (stuck in a native built-in): drop the worker.
      const stuck = this.worker;
      this.worker = undefined;
      void stuck?.terminate();
      this.finish({ ok: false, reason: `Script execution timed out after ${timeout}ms` });
    }, timeout + WATCHDOG_GRACE_MS);
    current.timer.unref();
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
