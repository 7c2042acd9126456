/**
 * Where the two frontends are built from and to: light enough (no Vite, no esbuild) for `npm start`'s
 * supervisor (build/start.ts) to decide whether dist/ui is stale without loading the build tools.
 */
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '..');

export const UI_DIR = join(ROOT, 'dist', 'ui');
export const UI_MANIFEST = 'manifest.json';

/** The apps: folder with vite.config.ts, output folder under dist/ui (= URL prefix). */
export const UI_APPS = [
  { source: 'login-ui', prefix: 'app' },
  { source: 'console', prefix: 'dashboard' },
] as const;
