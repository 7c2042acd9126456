/**
 * `npm run build` (first step): the two frontends with Vite, into dist/ui/app (login UI, served at /app) and
 * dist/ui/dashboard (admin console, served at /dashboard), then dist/ui/manifest.json, the list the server
 * serves from: path, content type, ETag and whether the name is content-hashed (cached for a year). Text
 * files also get a brotli copy (`<file>.br`) made here once, so the server never compresses per request.
 * build/sea.ts embeds all of dist/ui in the executable.
 */
import { build } from 'vite';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { extname, join, relative, sep } from 'node:path';
import { brotliCompressSync, constants as zlib } from 'node:zlib';
import { ROOT } from './bundle.ts';
// The manifest entry is what the server reads (server/transports/http/ui/ui-assets.ts).
import type { UiFile } from '../server/transports/http/ui/ui-assets.ts';

import { UI_APPS, UI_DIR, UI_MANIFEST } from './ui-apps.ts';

export { UI_APPS, UI_DIR, UI_MANIFEST };

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.ttf': 'font/ttf',
  '.txt': 'text/plain; charset=utf-8',
  '.wasm': 'application/wasm',
};

export interface UiManifest {
  /** Key: path under dist/ui with forward slashes, e.g. "app/index.html", "app/assets/index-abc123.js". */
  files: Record<string, UiFile>;
}

function* walk(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(path);
    else yield path;
  }
}

function manifestFor(dir: string): UiManifest {
  const files: Record<string, UiFile> = {};
  for (const prefix of UI_APPS.map((app) => app.prefix)) {
    for (const file of walk(join(dir, prefix))) {
      if (file.endsWith('.br')) continue;
      const key = relative(dir, file).split(sep).join('/');
      const body = readFileSync(file);
      const type = TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream';
      const compressible = /^(text\/|application\/json|image\/svg|application\/wasm)/.test(type) && body.length > 1024;
      if (compressible) {
        const compressed = brotliCompressSync(body, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11, [zlib.BROTLI_PARAM_SIZE_HINT]: body.length } });
        writeFileSync(`${file}.br`, compressed);
      }
      files[key] = {
        type,
        etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`,
        immutable: key.includes('/assets/'),
        br: compressible,
        size: statSync(file).size,
      };
    }
  }
  return { files };
}

export async function buildUi(): Promise<UiManifest> {
  for (const app of UI_APPS) {
    await build({ configFile: join(ROOT, app.source, 'vite.config.ts'), logLevel: 'warn' });
  }
  const manifest = manifestFor(UI_DIR);
  writeFileSync(join(UI_DIR, UI_MANIFEST), JSON.stringify(manifest, null, 1));
  return manifest;
}

if (process.argv[1] && import.meta.filename === process.argv[1]) {
  const started = performance.now();
  buildUi().then(
    (manifest) => {
      const bytes = Object.values(manifest.files).reduce((sum, file) => sum + file.size, 0);
      console.log(`dist/ui: ${Object.keys(manifest.files).length} files, ${(bytes / 1024).toFixed(0)} KiB in ${Math.round(performance.now() - started)} ms`);
    },
    (err: Error) => {
      console.error(`ui build failed: ${err.stack ?? err.message}`);
      process.exit(1);
    },
  );
}
