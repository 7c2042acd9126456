/**
 * The Node flags the server runs with, one list for both ways of running it: sea-config.json's `execArgv`
 * (the single executable applies them at every start) and `npm start` (build/start.ts passes them to node).
 * - `--expose-gc`: server/idle-collector.ts gives memory back once a burst of load is over.
 * - `--v8-pool-size=2`: V8's background threads (concurrent marking, sweeping, compilation), 4 by default.
 *   Each thread keeps its own malloc arena, which glibc does not give back after a burst; with 2 the
 *   resident memory 5 s after bench/memory.ts's load was 116 instead of 122 MiB (idle 105 MiB), and a
 *   server whose heap is some 40 MiB live needs no more for its collections.
 * - `--no-maglev`: V8's mid-tier compiler compiled about a hundred functions on those background threads
 *   while the server started (--trace-opt), and the threads' malloc arenas kept the compilers' memory:
 *   idle 2 s after start was 100 MiB with it, 94 MiB without (bench:startup, median of 5). Hot code is
 *   still optimised by TurboFan; token validation measured the same with and without (bench:validate,
 *   26-29 us of CPU per request either way), and start-up time did not change (254 ms).
 * - `--invocation-count-for-turbofan=3000 --invocation-count-for-osr=500`: V8's defaults, named so that
 *   server/start-tiering.ts can raise them while the server starts and set them back exactly (V8's code
 *   cache check counts a flag set back to its default at run time as changed, not one set back to the
 *   value the process started with).
 * - `--initial-old-space-size=64` (MiB): the old generation a start fills (some 32 MiB) no longer reaches
 *   V8's first, smaller limit, so no full collection runs in the middle of the start (--trace-gc: one
 *   incremental mark-compact, about 50 ms of marking and pause); CPU to the first /readyz 340-350 -> 290-320
 *   ms (bench:startup's setup, median of 5, twice). The idle collector (server/idle-collector.ts) still
 *   collects once the start is over, so idle memory did not change (86 MiB), nor did bench:memory's figures
 *   (peak 216 vs 215 MiB, 5 s after the load 110 vs 108 MiB, same run).
 * - `--min-semi-space-size=16` (MiB): the floor for V8's young generation. The idle collector's last-resort
 *   collection (server/idle-collector.ts) shrank it to 1 MiB, and request garbage, which dies young, never
 *   grew it back: scavenges ran some seven times as often (--trace-gc) and token validation cost 71-75
 *   instead of 61-65 us of CPU a request (bench:validate on the executable, alternating runs of the same
 *   tree, quiet machine). The collection still releases the pages' memory: idle 2 s after start 87-88 vs
 *   92-93 MiB without the floor (bench:startup, 5 starts each), 5 s after bench:memory's load 117 vs 116
 *   MiB (idle 106 vs 105 MiB).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export const SEA_CONFIG = join(import.meta.dirname, '..', 'sea-config.json');

export function runtimeFlags(): string[] {
  const config = JSON.parse(readFileSync(SEA_CONFIG, 'utf8')) as { execArgv?: unknown };
  const flags = config.execArgv ?? [];
  if (!Array.isArray(flags) || !flags.every((flag) => typeof flag === 'string' && flag.startsWith('--'))) {
    throw new Error('sea-config.json execArgv must be a list of --flags');
  }
  return flags as string[];
}
