/**
 * build/code-cache.ts: the single executable carries the server bundle and a V8 code cache made by a real
 * start after its ELF image, and its main script (build/sea-main.ts) finds them by the trailer. That the
 * cache is accepted at start is test/sea/sea.test.ts's empty-stderr test (sea-main.ts says when it is not).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { closeSync, fstatSync, openSync, readFileSync, readSync } from 'node:fs';
import { Script } from 'node:vm';
import { BUNDLE } from '../../build/bundle.ts';
import { TRAILER_BYTES, decodeTrailer, encodeTrailer, wrapBundle } from '../../build/code-cache.ts';
import { requireExecutable } from './executable.ts';

test('a trailer reads back as written, and only where it fits the file', () => {
  const location = { scriptOffset: 1000, scriptLength: 200, cacheLength: 50 };
  const trailer = encodeTrailer(location);
  assert.equal(trailer.length, TRAILER_BYTES);
  assert.deepEqual(decodeTrailer(trailer, 1250 + TRAILER_BYTES), location);
  assert.equal(decodeTrailer(trailer, 1251 + TRAILER_BYTES), undefined, 'lengths that do not end at the trailer');
  const other = Buffer.from(trailer);
  other.write('XXXXXXXX', 0, 'latin1');
  assert.equal(decodeTrailer(other, 1250 + TRAILER_BYTES), undefined, 'another magic');
});

test('the wrapped bundle is one function expression that runs nothing when compiled', () => {
  let ran = false;
  const probe = { mark: () => (ran = true) };
  const fn = new Script(wrapBundle('exports.value = 42; require.mark();')).runInThisContext() as (...args: unknown[]) => void;
  assert.equal(ran, false);
  const exports: { value?: number } = {};
  fn(exports, probe, { exports }, 'f', 'd');
  assert.equal(exports.value, 42);
  assert.equal(ran, true);
});

test('dist/portcullis carries dist/portcullis.cjs and a code cache after its image', () => {
  const executable = requireExecutable();
  const fd = openSync(executable, 'r');
  try {
    const size = fstatSync(fd).size;
    const trailer = Buffer.alloc(TRAILER_BYTES);
    readSync(fd, trailer, 0, TRAILER_BYTES, size - TRAILER_BYTES);
    const location = decodeTrailer(trailer, size);
    assert.ok(location, 'no bundle trailer at the end of dist/portcullis');
    const script = Buffer.alloc(location.scriptLength);
    readSync(fd, script, 0, script.length, location.scriptOffset);
    assert.ok(script.equals(readFileSync(BUNDLE)), 'the carried script is not dist/portcullis.cjs (rebuild with npm run sea)');
    // A code cache made after a start holds the functions the start compiled: megabytes, not the outer
    // function alone (which is what Node's own SEA code cache would hold).
    assert.ok(location.cacheLength > 1024 * 1024, `code cache of ${location.cacheLength} bytes`);
  } finally {
    closeSync(fd);
  }
});
