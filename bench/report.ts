/**
 * How every benchmark states its result: for each figure, our number, the anchor measured in the same run
 * (bare Fastify, the machine's argon2 ceiling, a bare Node start), the ratio between them and the target.
 * Figures are printed, never asserted (machines are noisy). Each script also leaves its rows in
 * .tmp/bench/<name>.json so that `npm run bench` (bench/all.ts) can gather them into bench/RESULTS.md.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const RESULTS_DIR = join(import.meta.dirname, '..', '.tmp', 'bench');

export interface Figure {
  /** What was measured, e.g. "POST /v1/validate_jwt_token, requests/s". */
  readonly figure: string;
  readonly ours: number;
  /** The anchor's name, e.g. "bare Fastify route". */
  readonly anchorName: string;
  readonly anchor: number;
  readonly unit: string;
  /** The target in words, e.g. ">= 50% of the anchor" or "< 500 ms". */
  readonly target: string;
  readonly met: boolean;
  /** Extra words worth keeping beside the figure (p99 latency, errors). */
  readonly detail?: string;
}

export interface BenchResult {
  readonly bench: string;
  readonly figures: readonly Figure[];
}

function formatNumber(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  return Math.abs(value) >= 100 ? Math.round(value).toLocaleString('en-US') : value.toFixed(1);
}

/** ours / anchor as a percentage, the one ratio every row prints. */
export function ratioOf(figure: Pick<Figure, 'ours' | 'anchor'>): string {
  return figure.anchor === 0 ? 'n/a' : `${((figure.ours / figure.anchor) * 100).toFixed(0)}%`;
}

export function markdownRows(figures: readonly Figure[]): string[] {
  return figures.map((f) => {
    const cells = [
      f.figure,
      `${formatNumber(f.ours)} ${f.unit}`,
      `${formatNumber(f.anchor)} ${f.unit} (${f.anchorName})`,
      ratioOf(f),
      f.target,
      f.met ? 'met' : 'missed',
      f.detail ?? '',
    ];
    return `| ${cells.join(' | ')} |`;
  });
}

export const MARKDOWN_HEADER = ['| Figure | Ours | Anchor (same run) | Ratio | Target | | Detail |', '|---|---|---|---|---|---|---|'];

/** Prints the figures as a table and leaves them for bench/all.ts. */
export function report(bench: string, figures: readonly Figure[]): void {
  console.log(['', ...MARKDOWN_HEADER, ...markdownRows(figures), ''].join('\n'));
  mkdirSync(RESULTS_DIR, { recursive: true });
  const result: BenchResult = { bench, figures };
  writeFileSync(join(RESULTS_DIR, `${bench}.json`), JSON.stringify(result, null, 2));
}

/** The p-th percentile of sorted values (nearest rank). */
export function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}
