/**
 * Imported first by the process entry (server/main.ts), for its effect: V8's optimising compiler (TurboFan)
 * is held back while the server starts, and main.ts releases it before the listeners open.
 *
 * A start runs some code thousands of times once and never again: the router inserts a thousand routes
 * (find-my-way's `_on`, whose TurboFan compilation alone took 136 ms on a background thread), the ORM walks
 * every entity's properties, a suffix list is loaded in a loop. V8 optimised some thirty such functions
 * during each start (--trace-opt): CPU spent on code that never runs again, and the compiler's memory stayed
 * in the background threads' malloc arenas. Holding back the optimising tiers until the listeners open
 * measured (bench:startup's setup, median of 3): resident memory 2 s after start 101 -> 88.5 MiB, CPU to
 * the first /readyz 420 -> 340 ms.
 *
 * Released means the thresholds the process was started with, so request handling tiers up as before; a
 * function that was already counting during the start needs one longer count once. They must be given on
 * the command line (sea-config.json's execArgv names V8's defaults; test/sea/start-tiering.test.ts checks
 * them against the binary): V8's code cache check counts a flag changed at run time as changed even when it
 * is set back to its default, but not one set back to the value it was started with. The executable's code
 * cache (build/code-cache.ts) is made after the release, so it is consumed under the flags it was made
 * with. Started without them (plain node, tests), nothing is changed.
 */
import { setFlagsFromString } from 'node:v8';

/** The V8 flags (`node --v8-options`) that decide when a function is optimised by TurboFan. */
export const THRESHOLD_FLAGS = ['invocation-count-for-turbofan', 'invocation-count-for-osr'] as const;

/** How many times the thresholds are raised while starting. */
export const START_FACTOR = 10;

/** The thresholds given on the command line, or undefined unless every one of them is. */
export function thresholdsGiven(execArgv: readonly string[]): Map<string, number> | undefined {
  const given = new Map<string, number>();
  for (const arg of execArgv) {
    const match = /^--([a-z-]+)=(\d+)$/.exec(arg);
    if (match && (THRESHOLD_FLAGS as readonly string[]).includes(match[1]!)) given.set(match[1]!, Number(match[2]));
  }
  return given.size === THRESHOLD_FLAGS.length ? given : undefined;
}

const started = thresholdsGiven(process.execArgv);
let held = false;

function set(factor: number): void {
  for (const [flag, value] of started!) setFlagsFromString(`--${flag}=${value * factor}`);
}

export function holdBackOptimisation(): void {
  if (!started || held) return;
  set(START_FACTOR);
  held = true;
}

/** The thresholds the process was started with again; called once the server is built, before it listens. */
export function releaseOptimisation(): void {
  if (!held) return;
  set(1);
  held = false;
}

holdBackOptimisation();
