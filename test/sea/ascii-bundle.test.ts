/**
 * build/bundle.ts escapeNonAscii(): the bundle is written in ASCII so that V8 keeps its source as a one-byte
 * string, and the escapes mean what the characters meant (ECMA-262 sections 12.9.4 and 22.2.1).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { runInNewContext } from 'node:vm';
import { BUNDLE, escapeNonAscii } from '../../build/bundle.ts';

const SOURCE = [
  "const durations = [...'5μs 3µs 2ms'.matchAll(/(\\d+)(µs|μs|ms)/g)].map((m) => m[2]);",
  "const emoji = /^[😀-😂]$/u.test('😁') && !/^[😀-😂]$/u.test('😃');",
  "const text = 'Wärting ✓ 😀' + `é${1}`;",
  '({ durations, emoji, text, length: text.length })',
].join('\n');

test('escaped source is ASCII and evaluates to what the original did', () => {
  const escaped = escapeNonAscii(SOURCE);
  assert.match(escaped, /^[\x00-\x7f]*$/);
  assert.equal(JSON.stringify(runInNewContext(escaped)), JSON.stringify(runInNewContext(SOURCE)));
});

test('the built bundle, when present, is ASCII', { skip: !existsSync(BUNDLE) && 'no dist/portcullis.cjs (npm run build)' }, () => {
  assert.match(readFileSync(BUNDLE, 'utf8'), /^[\x00-\x7f]*$/);
});
