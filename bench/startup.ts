/**
 * `npm run bench:startup [-- --runs N]`: starts the single executable (dist/portcullis) N times (default 10),
 * each time alone in an empty folder on a fresh SQLite file, and prints the time from spawn to the first 200
 * on /healthz (median and max) and the resident memory right after that. Figures are printed, not asserted:
 * they depend on the machine.
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { EXECUTABLE, freePorts, isolatedCopy, rssMiB, run, serverFlags, stop, waitFor200 } from '../test/sea/executable.ts';

function runsFromArgs(argv: readonly string[]): number {
  const index = argv.indexOf('--runs');
  const runs = index >= 0 ? Number(argv[index + 1]) : 10;
  if (!Number.isInteger(runs) || runs < 1) throw new Error('--runs takes a whole number >= 1');
  return runs;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

async function main(): Promise<void> {
  const runs = runsFromArgs(process.argv.slice(2));
  const copy = isolatedCopy();
  const startupMs: number[] = [];
  const rss: number[] = [];
  try {
    for (let i = 0; i < runs; i++) {
      const ports = await freePorts();
      // Rate limit off as in every benchmark, so the figures measure the server rather than the limiter.
      const flags = serverFlags(copy.dir, ports, ['--database-url', join(copy.dir, `run-${i}.db`), '--log-level', 'warn', '--rate-limit-rps', '0']);
      const started = performance.now();
      const server = run(copy.executable, flags, copy.dir);
      try {
        startupMs.push(await waitFor200(`http://127.0.0.1:${ports.http}/healthz`, server, started));
        rss.push(rssMiB(server.child.pid ?? 0));
      } finally {
        await stop(server);
      }
    }
  } finally {
    copy.cleanup();
  }
  const size = statSync(EXECUTABLE).size;
  const ms = (v: number) => `${v.toFixed(0)} ms`;
  const mib = (v: number) => `${v.toFixed(1)} MiB`;
  console.log(`dist/portcullis (${mib(size / 1024 / 1024)}), ${runs} starts on a fresh SQLite file each`);
  console.log(`spawn to first 200 on /healthz: median ${ms(median(startupMs))}, max ${ms(Math.max(...startupMs))}, min ${ms(Math.min(...startupMs))}`);
  console.log(`RSS right after start:          median ${mib(median(rss))}, max ${mib(Math.max(...rss))}`);
}

main().catch((err: Error) => {
  console.error(`bench:startup failed: ${err.message}`);
  process.exit(1);
});
