/**
 * The main script of the single executable (build/sea.ts bundles it into dist/sea-main.cjs): reads the
 * server bundle and its code cache from after the executable's ELF image (build/code-cache.ts says why and
 * how they are laid out), compiles the bundle with the cache and runs it as Node would have run it as the
 * main script: same `require` (built-in modules only), `module`, `exports`, `__filename` and `__dirname`,
 * and the executable's path as the script's file name in stack traces.
 *
 * A cache V8 rejects (another Node binary or other V8 flags than the build's) costs time, not correctness:
 * the bundle is compiled from source. It is said on stderr, once, so that a build that ships a useless cache
 * is seen (test/sea/sea.test.ts asserts an empty stderr).
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { Script } from 'node:vm';
import { TRAILER_BYTES, decodeTrailer, wrapBundle } from './code-cache.ts';

function readAt(fd: number, offset: number, length: number): Buffer {
  // allocUnsafeSlow: a buffer of its own (not a slice of Node's shared pool), freed as soon as it is dropped.
  const buffer = Buffer.allocUnsafeSlow(length);
  let done = 0;
  while (done < length) {
    const read = readSync(fd, buffer, done, length - done, offset + done);
    if (read === 0) throw new Error(`${process.execPath}: the bundle ends early (at byte ${offset + done})`);
    done += read;
  }
  return buffer;
}

function loadBundle(): { source: string; cache?: Buffer } {
  const fd = openSync(process.execPath, 'r');
  try {
    const size = fstatSync(fd).size;
    const location = decodeTrailer(readAt(fd, size - TRAILER_BYTES, TRAILER_BYTES), size);
    if (!location) throw new Error(`${process.execPath} carries no server bundle: rebuild it with \`npm run sea\``);
    const source = readAt(fd, location.scriptOffset, location.scriptLength).toString('latin1');
    const cache = location.cacheLength > 0 ? readAt(fd, location.scriptOffset + location.scriptLength, location.cacheLength) : undefined;
    return { source, cache };
  } finally {
    closeSync(fd);
  }
}

function run(): void {
  const { source, cache } = loadBundle();
  const script = new Script(wrapBundle(source), { filename: __filename, cachedData: cache });
  if (cache && script.cachedDataRejected) {
    process.stderr.write('portcullis: the code cache does not fit this Node binary or its flags; compiling from source\n');
  }
  const main = script.runInThisContext() as (exports: unknown, require: NodeJS.Require, module: NodeJS.Module, filename: string, dirname: string) => void;
  main(exports, require, module, __filename, __dirname);
}

run();
