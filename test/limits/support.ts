/** Shared by the limit tests: scraping the metrics listener, and waiting for a condition. */
import type { TestServer } from '../support/app.ts';

export async function scrape(server: TestServer): Promise<string> {
  const res = await fetch(`http://127.0.0.1:${server.ports.metrics}/metrics`);
  if (res.status !== 200) throw new Error(`/metrics answered ${res.status}`);
  return res.text();
}

/** The value of one sample, 0 when absent; `labels` must all match (others may be present). */
export function metricValue(text: string, name: string, labels: Record<string, string>): number {
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`)) continue;
    const close = line.lastIndexOf('}');
    const body = line.slice(name.length + 1, close);
    const found = Object.fromEntries([...body.matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]));
    if (Object.entries(labels).every(([k, v]) => found[k] === v)) return Number(line.slice(close + 1).trim());
  }
  return 0;
}

export async function until(what: string, condition: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
