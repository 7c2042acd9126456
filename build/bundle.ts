/**
 * `npm run build`: bundles server/main.ts and every dependency into one CommonJS file, dist/portcullis.cjs,
 * that runs with no node_modules beside it and is the main script of the single executable (build/sea.ts).
 *
 * The traps of a Node single executable (docs/architecture.md#the-single-executable) and how each is met here:
 * - The entry must be CommonJS and may not use top-level await: format 'cjs' (esbuild refuses top-level
 *   await in cjs output, so the build fails instead of the executable).
 * - A dynamic `import()` inside the executable rejects with ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING. MikroORM 7
 *   evaluates one on every `MikroORM.init` (core/utils/fs-utils.js `fs.init()` tries `import('tinyglobby')`),
 *   and keeps others for folder discovery, extensions and dataloader. `supported: { 'dynamic-import': false }`
 *   makes esbuild lower every `import(x)` it cannot bundle into `Promise.resolve().then(() => require(x))`:
 *   still asynchronous, still a rejected promise when the module is absent (which MikroORM already catches),
 *   and it works inside the executable, whose `require` loads built-in modules. Literal imports that resolve
 *   are bundled as before. assertNoDynamicImport() then refuses any `import(` left in the output.
 * - `import.meta` is empty in CommonJS: `import.meta.url`, `.filename` and `.dirname` are defined from
 *   `__filename` (in the executable that is the executable's own path); `import.meta.resolve` throws (a
 *   bundled program has no packages to resolve; MikroORM treats the throw as "extension not installed").
 *   Any other `import.meta` use fails the build (logOverride below) rather than being silently `{}`.
 * - Optional native or absent dependencies of the drivers are external: required inside try/catch by their
 *   packages and never needed by Portcullis (SQLite goes through node:sqlite, so no addon at all).
 * - Native addons that are needed (@node-rs/argon2) are embedded in the bundle and loaded from a private
 *   temporary copy at start (build/native-addons.ts).
 */
import { build, type BuildOptions, type Metafile, type Plugin } from 'esbuild';
import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { embedNativeAddons } from './native-addons.ts';
import { ASSETS_DIR } from './bundle-assets.ts';
import { separateDrivers } from './driver-bundles.ts';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
export const BUNDLE = join(ROOT, 'dist', 'portcullis.cjs');

/** Required only inside try/catch (or behind options we never set) by the packages that mention them. */
const NEVER_NEEDED = [
  // mongodb: compression, Kerberos/GSSAPI, client-side encryption, cloud credentials, SOCKS proxy.
  'kerberos',
  'snappy',
  '@mongodb-js/zstd',
  'mongodb-client-encryption',
  '@aws-sdk/credential-providers',
  'gcp-metadata',
  'socks',
  // pg: the libpq binding (pg.native), never touched unless asked for.
  'pg-native',
  // SQLite drivers with native addons; Portcullis uses node:sqlite through MikroORM's NodeSqliteDialect.
  'better-sqlite3',
  'sqlite3',
  // MikroORM optional helpers: faster globbing for folder discovery (unused: entities are listed) and
  // the dataloader option (off).
  'tinyglobby',
  'dataloader',
];

/** Runs before any bundled module; the identifiers are what the `define`s below point at. */
const PRELUDE = [
  'var __portcullis_import_meta_url = require("node:url").pathToFileURL(__filename).href;',
  'var __portcullis_import_meta_resolve = function (specifier) {',
  '  throw new Error("import.meta.resolve(" + JSON.stringify(specifier) + ") is not available in the bundled server");',
  '};',
].join('\n');

/** Source of the custom claims sandbox's worker thread, and the module that tells how to start it. */
const SANDBOX_WORKER = join(ROOT, 'server', 'modules', 'tokens', 'script-sandbox', 'worker.ts');
const SANDBOX_WORKER_SCRIPT = /[\\/]server[\\/]modules[\\/]tokens[\\/]script-sandbox[\\/]worker-script\.ts$/;
const BUNDLE_ASSETS = join(ROOT, 'build', 'bundle-assets.ts');

/**
 * The sandbox worker (QuickJS with its WebAssembly inlined) is started from a file when run from source;
 * the single executable has no file to start, so worker.ts is bundled on its own into one CommonJS script,
 * carried as the bundle asset SANDBOX_WORKER_ASSET (build/bundle-assets.ts), and worker-script.ts is
 * replaced by a module that reads that asset and hands it to `new Worker(code, { eval: true })` when the
 * first custom-claims script runs. Inside an eval worker `require` loads built-in modules only, which is all
 * the bundled worker needs.
 */
export const SANDBOX_WORKER_ASSET = 'sandbox-worker.cjs';

function inlineSandboxWorker(): Plugin {
  return {
    name: 'inline-sandbox-worker',
    setup(outer) {
      let workerCode: string | undefined;
      outer.onLoad({ filter: SANDBOX_WORKER_SCRIPT }, async () => {
        const result = await build({
          entryPoints: [SANDBOX_WORKER],
          bundle: true,
          write: false,
          platform: 'node',
          target: 'node24',
          format: 'cjs',
          supported: { 'dynamic-import': false },
          logOverride: { 'empty-import-meta': 'error' },
          legalComments: 'eof',
          minifyWhitespace: true,
          minifySyntax: true,
          logLevel: 'warning',
        });
        const code = result.outputFiles[0]!.text;
        // The WebAssembly binary is inlined as one template literal whose bytes happen to spell "import()"
        // (an engine error message); it is data, so it is left out of the check.
        const found = findDynamicImports(code.replace(/`\\0asm(?:[^`\\]|\\.)*`/s, '``'));
        if (found.length > 0) throw new Error(`the sandbox worker still contains dynamic import():\n  ${found.join('\n  ')}`);
        workerCode = code;
        return {
          contents: [
            `import { readBundleAssetText } from ${JSON.stringify(BUNDLE_ASSETS)};`,
            `export function sandboxWorkerScript() { return { script: readBundleAssetText(${JSON.stringify(SANDBOX_WORKER_ASSET)}), eval: true }; }`,
          ].join('\n'),
          loader: 'js',
          resolveDir: ROOT,
          watchFiles: [SANDBOX_WORKER],
        };
      });
      outer.onEnd((result) => {
        const outfile = outer.initialOptions.outfile;
        if (result.errors.length > 0 || outer.initialOptions.write === false || !outfile || workerCode === undefined) return;
        mkdirSync(join(dirname(outfile), ASSETS_DIR), { recursive: true });
        writeFileSync(join(dirname(outfile), ASSETS_DIR, SANDBOX_WORKER_ASSET), workerCode);
      });
    },
  };
}

/** What the main bundle and the separately bundled drivers (driver-bundles.ts) share. */
function commonOptions(): BuildOptions {
  return {
    platform: 'node',
    target: 'node24',
    format: 'cjs',
    supported: { 'dynamic-import': false },
    external: NEVER_NEEDED,
    banner: { js: PRELUDE },
    define: {
      'import.meta.url': '__portcullis_import_meta_url',
      'import.meta.filename': '__filename',
      'import.meta.dirname': '__dirname',
      'import.meta.resolve': '__portcullis_import_meta_resolve',
    },
    logOverride: { 'empty-import-meta': 'error' },
    // Third-party licence comments are kept together at the end of the file.
    legalComments: 'eof',
    // Minification shrinks the script V8 must read and compile at every start and keeps in its heap as
    // source for as long as the process runs (local identifiers: 8.5 -> 6.3 MiB, about 4 MiB of resident
    // memory counting the executable's mapped copy). Function and class names are not kept (no keepNames):
    // esbuild keeps them by defining `name` on every named function each time it is created, which cost about
    // 15-25% of a token validation's CPU. The bundled libraries read names only for messages and logs
    // (audited: MikroORM, whose entities are named in defineEntity, pg, ioredis, rate-limiter-flexible,
    // mongodb, graphql); the price is minified names in stack traces and in a logged error's `type`. No
    // bundled library reads local or parameter names from source; MikroORM's constructor-parameter scan
    // finds no constructor on defineEntity classes.
    minifyWhitespace: true,
    minifySyntax: true,
    minifyIdentifiers: true,
    keepNames: false,
    logLevel: 'warning',
  };
}

/** The esbuild options; the plugin records the native addons it embeds into `embeddedAddons`. */
export function buildOptions(embeddedAddons: string[] = []): BuildOptions {
  const common = commonOptions();
  return {
    ...common,
    entryPoints: [join(ROOT, 'server', 'main.ts')],
    outfile: BUNDLE,
    bundle: true,
    metafile: true,
    plugins: [embedNativeAddons(embeddedAddons), inlineSandboxWorker(), separateDrivers(common)],
  };
}

/**
 * Finds `import(` calls in the output, skipping comment lines (JSDoc types such as `import('x').T`).
 * Returns "line: text" for each, so a failed build says where to look.
 */
export function findDynamicImports(code: string): string[] {
  const found: string[] = [];
  const lines = code.split('\n');
  lines.forEach((line, index) => {
    const trimmed = line.trimStart();
    if (trimmed.startsWith('//') || trimmed.startsWith('*') || trimmed.startsWith('/*')) return;
    if (/(^|[^.\w$])import\s*\(/.test(line)) found.push(`${index + 1}: ${trimmed.slice(0, 120)}`);
  });
  return found;
}

function assertNoDynamicImport(file: string): void {
  const found = findDynamicImports(readFileSync(file, 'utf8'));
  if (found.length > 0) {
    throw new Error(`${relative(ROOT, file)} still contains dynamic import() (it crashes inside the single executable):\n  ${found.join('\n  ')}`);
  }
}

/**
 * Writes every non-ASCII character of the bundle as a `\\uXXXX` escape. esbuild escapes them in strings but
 * leaves some in regular expression literals (a duration parser's `μs`) and in legal comments, and one
 * character above U+00FF makes V8 keep the whole script source as a two-byte string: the bundle's 4.3 MB
 * became 8.6 MB of heap for as long as the process runs. An escape means the same in a string, a regular
 * expression (with or without the u flag, where an escaped surrogate pair is one code point), a cooked
 * template or an identifier (ECMA-262 sections 12.9.4, 22.2.1 and 12.7). It would not in a template read
 * raw (String.raw and other tags), where esbuild must leave such characters as they are; the bundle has none
 * (the characters left today are two regular expressions' and the legal comments').
 */
export function escapeNonAscii(code: string): string {
  return code.replace(/[\u0080-\uffff]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

function writeAscii(file: string): void {
  const code = readFileSync(file, 'utf8');
  if (/^[\x00-\x7f]*$/.test(code)) return;
  writeFileSync(file, escapeNonAscii(code));
}

/** The largest inputs, to see at a glance what the bundle is made of. */
function largestPackages(metafile: Metafile, count: number): string[] {
  const bytes = new Map<string, number>();
  for (const [path, input] of Object.entries(metafile.inputs)) {
    const match = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path);
    const name = match?.[1] ?? '(portcullis)';
    bytes.set(name, (bytes.get(name) ?? 0) + input.bytes);
  }
  return [...bytes.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([name, size]) => `${name} ${(size / 1024).toFixed(0)} KiB`);
}

export async function bundle(): Promise<{ file: string; bytes: number }> {
  mkdirSync(dirname(BUNDLE), { recursive: true });
  // The assets of an earlier build must not travel into the next executable.
  rmSync(join(dirname(BUNDLE), ASSETS_DIR), { recursive: true, force: true });
  const embeddedAddons: string[] = [];
  const result = await build(buildOptions(embeddedAddons));
  writeFileSync(join(dirname(BUNDLE), 'portcullis.meta.json'), JSON.stringify(result.metafile));
  assertNoDynamicImport(BUNDLE);
  writeAscii(BUNDLE);
  const bytes = statSync(BUNDLE).size;
  if (result.metafile) console.log(`largest inputs: ${largestPackages(result.metafile, 8).join(', ')}`);
  if (embeddedAddons.length > 0) console.log(`embedded native addons: ${embeddedAddons.map((p) => relative(ROOT, p)).join(', ')}`);
  return { file: BUNDLE, bytes };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const started = performance.now();
  bundle().then(
    ({ file, bytes }) => {
      console.log(`${relative(ROOT, file)}: ${(bytes / 1024 / 1024).toFixed(1)} MiB in ${Math.round(performance.now() - started)} ms`);
    },
    (err: Error) => {
      // esbuild has already printed its own diagnostics; this is the one-line summary.
      console.error(`build failed: ${err.message}`);
      process.exit(1);
    },
  );
}
