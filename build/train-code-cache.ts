/**
 * `node <the executable's flags> build/train-code-cache.ts <bundle> <cache out>` (run by build/sea.ts): starts
 * the server bundle once, on a fresh SQLite file in a temporary folder and free ports, waits for its first
 * 200 on /readyz, and writes V8's code cache of the bundle as it is then: every function the start compiled,
 * so the executable compiles none of them again (build/code-cache.ts). Nothing is served beyond /readyz, so
 * the cache holds what every start runs and no more (V8 deserializes all of it at each start).
 *
 * V8 accepts the cache only on the same binary with the same flags: build/sea.ts runs this on the binary it
 * copies, with sea-config.json's execArgv. The bundle gets a `require` of built-in modules only, as inside
 * the executable, so the start takes the executable's paths (optional packages absent).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire, isBuiltin } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { Script } from 'node:vm';
import { wrapBundle } from './code-cache.ts';

const READY_TIMEOUT_MS = 60_000;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

function builtinOnlyRequire(bundle: string): NodeJS.Require {
  const nodeRequire = createRequire(bundle);
  const require = ((id: string) => {
    if (!isBuiltin(id)) throw Object.assign(new Error(`No such built-in module: ${id}`), { code: 'ERR_UNKNOWN_BUILTIN_MODULE' });
    return nodeRequire(id) as unknown;
  }) as NodeJS.Require;
  return Object.assign(require, { resolve: nodeRequire.resolve, cache: nodeRequire.cache, main: undefined });
}

async function waitForReady(url: string): Promise<void> {
  const started = Date.now();
  while (Date.now() - started < READY_TIMEOUT_MS) {
    const status = await fetch(url).then(
      async (response) => (await response.arrayBuffer(), response.status),
      () => 0,
    );
    if (status === 200) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`the bundle did not answer 200 on ${url} within ${READY_TIMEOUT_MS} ms`);
}

async function train(bundle: string, out: string): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'portcullis-code-cache-'));
  try {
    const port = await freePort();
    const secret = () => randomBytes(24).toString('hex');
    process.argv = [process.execPath, bundle,
      '--database-type', 'sqlite', '--database-url', join(dir, 'train.db'),
      '--url', `http://127.0.0.1:${port}`, '--host', '127.0.0.1', '--http-port', String(port),
      '--grpc-port', '0', '--metrics-host', '127.0.0.1', '--metrics-port', '0',
      '--client-id', 'code-cache', '--client-secret', secret(), '--admin-secret', secret(),
      '--jwt-type', 'HS256', '--jwt-secret', secret(), '--log-level', 'error'];
    const script = new Script(wrapBundle(readFileSync(bundle, 'latin1')), { filename: bundle });
    const module = { exports: {} };
    const main = script.runInThisContext() as (exports: unknown, require: NodeJS.Require, module: unknown, filename: string, dirname: string) => void;
    main(module.exports, builtinOnlyRequire(bundle), module, bundle, dirname(bundle));
    await waitForReady(`http://127.0.0.1:${port}/readyz`);
    const cache = script.createCachedData();
    writeFileSync(out, cache);
    return cache.length;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const [bundle, out] = process.argv.slice(2);
if (!bundle || !out) {
  console.error('usage: node build/train-code-cache.ts <bundle> <cache out>');
  process.exit(2);
}
train(bundle, out).then(
  (bytes) => {
    console.log(`code cache: ${(bytes / 1024 / 1024).toFixed(1)} MiB`);
    // The server is still running; the cache is written, so the process ends here.
    process.exit(0);
  },
  (err: Error) => {
    console.error(`code cache training failed: ${err.message}`);
    process.exit(1);
  },
);
