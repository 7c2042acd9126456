/**
 * What the sandbox worker runs. From source: worker.ts itself (Node strips its types). The single
 * executable has no files beside it, so build/bundle.ts replaces this module with one whose script is
 * worker.ts bundled into a CommonJS string, started with `eval: true`.
 */
export function sandboxWorkerScript(): { script: string | URL; eval: boolean } {
  return { script: new URL('./worker.ts', import.meta.url), eval: false };
}
