/**
 * `npm run bench`: runs every benchmark of this folder one after another (each starts its own servers and
 * measures its own anchor in the same run), then writes bench/RESULTS.md and the table between the
 * `bench:results` markers of README.md, with the date, the machine and the commit measured.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, totalmem, release } from 'node:os';
import { join } from 'node:path';
import { MARKDOWN_HEADER, RESULTS_DIR, markdownRows, type BenchResult } from './report.ts';

const ROOT = join(import.meta.dirname, '..');
/** In the order the README table lists them. */
const BENCHES = ['validate', 'login', 'token', 'startup', 'memory'] as const;
const MARKERS = ['<!-- bench:results:start -->', '<!-- bench:results:end -->'] as const;

function machine(): string {
  const cores = cpus();
  const model = cores[0]?.model.trim() ?? 'unknown CPU';
  return `${cores.length} x ${model}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Linux ${release()}, Node ${process.versions.node}`;
}

function commit(): string {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim();
  } catch {
    return 'unknown';
  }
}

function table(results: readonly BenchResult[]): string {
  const date = new Date().toISOString().slice(0, 10);
  return [
    `Measured ${date} on ${machine()}, commit ${commit()}, by \`npm run bench\` after \`npm run build && npm run sea\`.`,
    '',
    ...MARKDOWN_HEADER,
    ...results.flatMap((result) => markdownRows(result.figures)),
  ].join('\n');
}

/**
 * The scale benchmarks (bench:scim, bench:users, bench:audit, bench:webhooks, bench:fga-scale) generate up
 * to a million rows and take minutes each, so `npm run bench` does not run them; their section of
 * RESULTS.md, from its heading on, is written from their printed tables and kept as it is here.
 */
const SCALE_HEADING = '## At scale';

function scaleSection(resultsPath: string): string {
  if (!existsSync(resultsPath)) return '';
  const current = readFileSync(resultsPath, 'utf8');
  const at = current.indexOf(`\n${SCALE_HEADING}`);
  return at < 0 ? '' : current.slice(at);
}

function main(): void {
  rmSync(RESULTS_DIR, { recursive: true, force: true });
  const results: BenchResult[] = [];
  const failed: string[] = [];
  for (const bench of BENCHES) {
    console.log(`\n== bench/${bench}.ts`);
    const run = spawnSync(process.execPath, [join(ROOT, 'bench', `${bench}.ts`)], { cwd: ROOT, stdio: 'inherit' });
    const file = join(RESULTS_DIR, `${bench}.json`);
    if (run.status !== 0 || !existsSync(file)) {
      failed.push(bench);
      continue;
    }
    results.push(JSON.parse(readFileSync(file, 'utf8')) as BenchResult);
  }
  const markdown = table(results);
  const resultsPath = join(ROOT, 'bench', 'RESULTS.md');
  writeFileSync(resultsPath, `# Benchmark results\n\n${markdown}\n${scaleSection(resultsPath)}`);
  const readmePath = join(ROOT, 'README.md');
  const readme = readFileSync(readmePath, 'utf8');
  const start = readme.indexOf(MARKERS[0]);
  const end = readme.indexOf(MARKERS[1]);
  if (start >= 0 && end > start) {
    writeFileSync(readmePath, `${readme.slice(0, start + MARKERS[0].length)}\n${markdown}\n${readme.slice(end)}`);
  }
  console.log(`\n${markdown}\n`);
  if (failed.length > 0) {
    console.error(`bench: ${failed.join(', ')} did not finish`);
    process.exit(1);
  }
}

main();
