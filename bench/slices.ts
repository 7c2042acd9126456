/**
 * Load in alternating slices (bench/validate.ts, bench/token.ts): our server and its anchor take turns
 * under the same autocannon load, ours-anchor, anchor-ours, ..., after a warm-up each, so a busy moment of a
 * shared machine weighs on both sides. Each side's CPU time is read from /proc over the same spans.
 */
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';

export type Load = Omit<autocannon.Options, 'url'>;

export interface Measured {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  /** The server process's CPU time (user + system) per answered request, in microseconds. */
  cpuMicros: number;
}

interface Slice {
  result: autocannon.Result;
  cpu: number;
}

/**
 * CPU seconds a process has used (utime + stime of /proc/<pid>/stat, in USER_HZ = 1/100 s ticks on
 * Linux). Less sensitive than requests/s to what else the machine runs: it is the work one request costs.
 */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** The load on one URL for `seconds`, with the server's CPU time over the same span. */
async function slice(url: string, load: Load, seconds: number, pid: number): Promise<Slice> {
  const cpuBefore = cpuSeconds(pid);
  const result = await autocannon({ ...load, url, duration: seconds, skipAggregateResult: true });
  return { result, cpu: cpuSeconds(pid) - cpuBefore };
}

function summary(slices: Slice[], url: string, load: Load): Measured {
  const answered = slices.reduce((sum, s) => sum + s.result['2xx'], 0);
  const seconds = slices.reduce((sum, s) => sum + s.result.duration, 0);
  const cpu = slices.reduce((sum, s) => sum + s.cpu, 0);
  const merged = autocannon.aggregateResult(slices.map((s) => s.result), { ...load, url });
  return {
    rps: answered / seconds,
    p50: merged.latency.p50,
    p99: merged.latency.p99,
    errors: slices.reduce((sum, s) => sum + s.result.non2xx + s.result.errors + s.result.timeouts, 0),
    cpuMicros: answered > 0 ? (cpu * 1e6) / answered : 0,
  };
}

export interface Side {
  url: string;
  pid: number;
}

/** `seconds` of load per side in `slices` turns, after `warmupSeconds` on each; neither side always goes first. */
export async function alternatingSlices(
  ours: Side,
  anchor: Side,
  options: { load: Load; seconds: number; slices: number; warmupSeconds: number },
): Promise<{ ours: Measured; anchor: Measured }> {
  const { load, seconds, slices, warmupSeconds } = options;
  await slice(ours.url, load, warmupSeconds, ours.pid);
  await slice(anchor.url, load, warmupSeconds, anchor.pid);
  const oursSlices: Slice[] = [];
  const anchorSlices: Slice[] = [];
  for (let i = 0; i < slices; i++) {
    const turn = [
      async () => oursSlices.push(await slice(ours.url, load, seconds / slices, ours.pid)),
      async () => anchorSlices.push(await slice(anchor.url, load, seconds / slices, anchor.pid)),
    ];
    if (i % 2 === 1) turn.reverse();
    for (const take of turn) await take();
  }
  return { ours: summary(oursSlices, ours.url, load), anchor: summary(anchorSlices, anchor.url, load) };
}
