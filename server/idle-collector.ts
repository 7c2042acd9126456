/**
 * Gives memory back once a burst of load is over. Under load V8 grows its old generation to keep up with
 * what requests allocate and collects only when an allocation asks for it; once the requests stop nothing
 * allocates, so nothing collects, and the process kept the burst's garbage (measured: 124 MiB idle, 270 MiB
 * still 12 s after 15 s of FGA checks, 42 MiB of it live). V8's own memory reducer is not started in Node's
 * embedding in this case.
 *
 * Every half second this looks at the event loop's utilisation over the past half second and at the V8
 * heap's size (with the external memory its objects hold). When the loop was nearly idle and the heap grew
 * by more than a threshold since the last collection, it runs one full collection, which frees the garbage and returns
 * V8's empty pages to the system (measured: 283 MiB at the end of 15 s of FGA checks, 131 MiB 5 s later).
 * Under load it never runs (V8 collects as it allocates), and an idle server whose heap does not grow is
 * never disturbed.
 *
 * It needs the collector exposed (`--expose-gc`: sea-config.json's execArgv for the single executable,
 * build/start.ts for `npm start`); without it (tests, other launchers) it does nothing.
 */
import { performance } from 'node:perf_hooks';
import { getHeapStatistics } from 'node:v8';

export interface IdleCollectorOptions {
  /** How often the loop's utilisation and the heap are looked at. */
  intervalMs?: number;
  /** Heap growth since the last collection that makes a collection worth it. */
  growthBytes?: number;
  /** Event loop utilisation (0..1) over the last interval at or below which the process counts as idle. */
  idleUtilization?: number;
  /** The full collection; the exposed `gc` by default. */
  collect?: () => void;
  /** Heap size now; V8's physical heap plus external memory by default. */
  heapBytes?: () => number;
  /** Event loop utilisation since the previous call; perf_hooks by default. */
  utilization?: () => number;
}

export interface IdleCollector {
  /** Collections run so far. */
  readonly collections: number;
  stop(): void;
}

const DEFAULTS = { intervalMs: 500, growthBytes: 16 * 1024 * 1024, idleUtilization: 0.05 };

type ExposedGc = (options: { type: 'major'; execution: 'sync'; flavor: 'last-resort' }) => void;

/**
 * The exposed collector, asked for V8's "last resort" collection: repeated full collections that also
 * release the emptied pages and shrink the young generation (a plain gc() frees the objects but V8 keeps
 * the pages: measured 273 -> 226 MiB resident for the plain one, 273 -> 79 MiB for this one).
 *
 * The shrink is what made later requests dearer: it took the young generation from the 64 MiB the start
 * had grown it to down to 1 MiB, and request garbage, which almost all dies young, never made V8 grow it
 * back (it grows only when survivors outweigh its size). Token validation then ran 335-487 scavenges in a
 * bench run instead of 50-63 (--trace-gc), and cost 87-92 instead of 69-74 us of CPU a request on a busy
 * machine; a plain collection, or none, kept the speed; --no-flush-bytecode did not. So sea-config.json's
 * execArgv gives `--min-semi-space-size=16` (build/runtime-flags.ts, with the figures): the shrink stops
 * there, the collection still releases the pages' memory, and the young generation stays large enough
 * under load.
 */
function exposedGc(): (() => void) | undefined {
  const gc = (globalThis as { gc?: unknown }).gc;
  if (typeof gc !== 'function') return undefined;
  return () => (gc as ExposedGc)({ type: 'major', execution: 'sync', flavor: 'last-resort' });
}

/**
 * V8's physical heap, young generation included, plus external memory. The young generation counts: under
 * load it grows to its working size (measured: about 90 MiB after bench:memory's 20 s) and stays there once
 * the requests stop, so leaving it out kept a process idle at 244 MiB. The last-resort collection shrinks it
 * only to the floor the executable's flags give (--min-semi-space-size, build/runtime-flags.ts), so the
 * requests after a collection do not pay for scavenges of a tiny young generation.
 */
function v8HeapBytes(): number {
  const stats = getHeapStatistics();
  return stats.total_physical_size + stats.external_memory;
}

function loopUtilization(): () => number {
  let last = performance.eventLoopUtilization();
  return () => {
    const now = performance.eventLoopUtilization();
    const window = performance.eventLoopUtilization(now, last);
    last = now;
    return window.utilization;
  };
}

export function startIdleCollector(options: IdleCollectorOptions = {}): IdleCollector {
  const collect = options.collect ?? exposedGc();
  let collections = 0;
  if (!collect) return { collections, stop() {} };
  const { intervalMs, growthBytes, idleUtilization } = { ...DEFAULTS, ...options };
  const heapBytes = options.heapBytes ?? v8HeapBytes;
  const utilization = options.utilization ?? loopUtilization();
  // The start counts as growth: what building the app left behind (module initialisation, metadata
  // discovery, compiled schemas) is collected at the first idle tick (measured: 2 s after start, resident
  // memory 123 -> 110 MiB).
  let baseline = 0;
  const timer = setInterval(() => {
    const busy = utilization() > idleUtilization;
    const heap = heapBytes();
    // A heap that shrank on its own (V8 collected) lowers the mark, so only new growth counts.
    if (heap < baseline) baseline = heap;
    if (busy || heap - baseline < growthBytes) return;
    collect();
    collections += 1;
    baseline = heapBytes();
  }, intervalMs);
  timer.unref();
  return {
    get collections() {
      return collections;
    },
    stop: () => clearInterval(timer),
  };
}
