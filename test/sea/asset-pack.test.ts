/**
 * build/asset-pack.ts: the executable's files travel as one SEA asset, so Node's start reads one asset name
 * instead of some sixty scattered through the blob; every file reads back byte for byte, in place.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openPack, writePack } from '../../build/asset-pack.ts';

test('every packed file reads back as it was, and an unknown name as undefined', () => {
  const dir = mkdtempSync(join(tmpdir(), 'portcullis-pack-'));
  try {
    const files = {
      'ui/app/index.html': Buffer.from('<!doctype html><p>é</p>'),
      'argon2.node': Buffer.from([0, 1, 2, 255, 254]),
      empty: Buffer.alloc(0),
    };
    const paths: Record<string, string> = {};
    for (const [name, bytes] of Object.entries(files)) {
      paths[name] = join(dir, name.replaceAll('/', '_'));
      writeFileSync(paths[name], bytes);
    }
    const pack = writePack(paths);
    const read = openPack(pack.buffer.slice(pack.byteOffset, pack.byteOffset + pack.byteLength) as ArrayBuffer);
    for (const [name, bytes] of Object.entries(files)) assert.deepEqual(Buffer.from(read(name)!), bytes, name);
    assert.equal(read('ui/app/other.html'), undefined);
    assert.equal(read('constructor'), undefined, 'names of Object.prototype are not files');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
