/**
 * `npm run bench:startup [-- --runs N --idle-ms M --executable path]`: how fast the single executable starts
 * and how much memory it holds once started, beside the anchor measured in the same run.
 *
 * Ours: dist/portcullis, copied alone into an empty folder, on a fresh SQLite file each time; the time from
 * spawn to the first 200 on /readyz (median of N runs, default 5), and the resident memory M ms (default
 * 2,000) after that answer, while idle.
 * Anchor: the Node binary the executable is built on (the executable is that binary plus the blob) running a
 * bare node:http server that answers 200, measured the same way, alternating run by run with ours so that a
 * busy moment of the shared machine hits both alike. Targets are absolute ("< 300 ms", "< 90 MiB");
 * the ratio says how far above a bare Node start we are. Beside the wall time, the CPU time the process had
 * used when it first answered 200 (user + system, all its threads, /proc/<pid>/stat): on a busy machine the
 * wall time measures the machine as much as the server, the CPU time much less so.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { findNodeBinary } from '../build/sea.ts';
import { freePort, freePorts, isolatedCopy, rssMiB, run, serverFlags, stop, waitFor200, type Running } from '../test/sea/executable.ts';
import { median, report } from './report.ts';
import { executableArg, numberArg, sleep } from './harness.ts';

const TARGET_MS = 300;
const TARGET_MIB = 90;

interface Sample {
  startMs: number;
  /** CPU time the process had used at its first 200. */
  startCpuMs: number;
  idleRssMiB: number;
}

/** Linux's USER_HZ, the unit of /proc/<pid>/stat's times (100 on every mainstream kernel configuration). */
const CLOCK_TICKS_PER_S = 100;

/** User + system CPU time of a process so far (proc(5), fields 14 and 15 of /proc/<pid>/stat). */
function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The command name (field 2) is in parentheses and may hold spaces: fields are counted after it.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_S;
}


/** Spawns, waits for the first 200 on `url`, waits `idleMs`, reads RSS, stops. */
async function measure(start: () => Running, url: string, idleMs: number): Promise<Sample> {
  const started = performance.now();
  const running = start();
  try {
    const startMs = await waitFor200(url, running, started);
    const startCpuMs = cpuMs(running.child.pid ?? 0);
    await sleep(idleMs);
    return { startMs, startCpuMs, idleRssMiB: rssMiB(running.child.pid ?? 0) };
  } finally {
    await stop(running);
  }
}

/** The anchor: the same Node binary, a bare node:http server answering 200 to every request. */
async function measureBareNode(node: string, cwd: string, idleMs: number): Promise<Sample> {
  const port = await freePort();
  const script = `require('node:http').createServer((q, s) => s.end('ok')).listen(${port}, '127.0.0.1')`;
  return measure(() => run(node, ['-e', script], cwd), `http://127.0.0.1:${port}/`, idleMs);
}

async function measurePortcullis(executable: string, dir: string, run_: number, idleMs: number): Promise<Sample> {
  const ports = await freePorts();
  // Rate limit off as in every benchmark, so the figures measure the server rather than the limiter.
  const flags = serverFlags(dir, ports, ['--database-url', join(dir, `run-${run_}.db`), '--log-level', 'warn', '--rate-limit-rps', '0']);
  return measure(() => run(executable, flags, dir), `http://127.0.0.1:${ports.http}/readyz`, idleMs);
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const runs = numberArg(argv, 'runs', 5);
  const idleMs = numberArg(argv, 'idle-ms', 2_000);
  const node = findNodeBinary();
  const copy = isolatedCopy(executableArg(argv));
  const ours: Sample[] = [];
  const anchor: Sample[] = [];
  try {
    for (let i = 0; i < runs; i++) {
      anchor.push(await measureBareNode(node, copy.dir, idleMs));
      ours.push(await measurePortcullis(copy.executable, copy.dir, i, idleMs));
    }
  } finally {
    copy.cleanup();
  }
  const list = (samples: Sample[], pick: (s: Sample) => number) => samples.map((s) => pick(s).toFixed(0)).join(', ');
  console.log(`${copy.source}, ${runs} starts each (alternating with the anchor), fresh SQLite file each`);
  console.log(`start ms  ours: ${list(ours, (s) => s.startMs)}; bare node: ${list(anchor, (s) => s.startMs)}`);
  console.log(`CPU ms    ours: ${list(ours, (s) => s.startCpuMs)}; bare node: ${list(anchor, (s) => s.startCpuMs)}`);
  console.log(`idle MiB  ours: ${list(ours, (s) => s.idleRssMiB)}; bare node: ${list(anchor, (s) => s.idleRssMiB)}`);
  const startMs = median(ours.map((s) => s.startMs));
  const idleMiB = median(ours.map((s) => s.idleRssMiB));
  report('startup', [
    {
      figure: `dist/portcullis spawn to first 200 on /readyz (median of ${runs})`,
      ours: startMs,
      anchorName: 'bare node:http on the same Node binary',
      anchor: median(anchor.map((s) => s.startMs)),
      unit: 'ms',
      target: `< ${TARGET_MS} ms`,
      met: startMs < TARGET_MS,
      detail: `max ${Math.max(...ours.map((s) => s.startMs)).toFixed(0)} ms; CPU time at the first 200 (median): ${median(ours.map((s) => s.startCpuMs)).toFixed(0)} ms, bare node ${median(anchor.map((s) => s.startCpuMs)).toFixed(0)} ms`,
    },
    {
      figure: `dist/portcullis resident memory ${(idleMs / 1000).toFixed(0)} s after start, idle (median of ${runs})`,
      ours: idleMiB,
      anchorName: 'bare node:http on the same Node binary',
      anchor: median(anchor.map((s) => s.idleRssMiB)),
      unit: 'MiB',
      target: `< ${TARGET_MIB} MiB`,
      met: idleMiB < TARGET_MIB,
      detail: `max ${Math.max(...ours.map((s) => s.idleRssMiB)).toFixed(1)} MiB`,
    },
  ]);
}

main().catch((err: Error) => {
  console.error(`bench:startup failed: ${err.message}`);
  process.exit(1);
});
