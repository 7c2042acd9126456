/**
 * server/start-tiering.ts: V8's optimising compiler is held back while the server starts and released before
 * it listens, to exactly the thresholds sea-config.json's execArgv gives: V8 checks its flags when it
 * consumes a code cache, and the executable's cache (build/code-cache.ts) is made after the release.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findNodeBinary } from '../../build/sea.ts';
import { runtimeFlags } from '../../build/runtime-flags.ts';
import { THRESHOLD_FLAGS, thresholdsGiven } from '../../server/start-tiering.ts';

const START_TIERING = join(import.meta.dirname, '..', '..', 'server', 'start-tiering.ts');

test("sea-config.json's execArgv gives every threshold, at the defaults of the Node the executable is built on", () => {
  const given = thresholdsGiven(runtimeFlags());
  assert.ok(given, `sea-config.json execArgv must give ${THRESHOLD_FLAGS.join(' and ')}`);
  const options = execFileSync(findNodeBinary(), ['--v8-options'], { encoding: 'utf8' });
  for (const [flag, value] of given) {
    assert.match(options, new RegExp(`default: --${flag}=${value}\\n`), `V8's default of --${flag} is not ${value}: the executable would run with other thresholds than V8's`);
  }
});

test('thresholds count only when every one is given', () => {
  assert.equal(thresholdsGiven(['--expose-gc']), undefined);
  assert.equal(thresholdsGiven(['--invocation-count-for-turbofan=3000']), undefined);
  assert.deepEqual([...thresholdsGiven(['--invocation-count-for-turbofan=3000', '--invocation-count-for-osr=500'])!], [
    ['invocation-count-for-turbofan', 3000],
    ['invocation-count-for-osr', 500],
  ]);
});

test('held back at import, the flags differ from the start; released, a cache made at start is accepted again', () => {
  const dir = mkdtempSync(join(tmpdir(), 'portcullis-tiering-'));
  try {
    const cache = join(dir, 'cache');
    const source = JSON.stringify('function probe(n) { return n * 2 } probe(21);');
    // A fresh process with the executable's flags, before start-tiering.ts is imported: the start's flags.
    execFileSync(process.execPath, [...runtimeFlags(), '-e', `require('node:fs').writeFileSync(${JSON.stringify(cache)}, new (require('node:vm').Script)(${source}).createCachedData())`]);
    const probe = [
      `import { readFileSync } from 'node:fs';`,
      `import { Script } from 'node:vm';`,
      `import { releaseOptimisation } from ${JSON.stringify(START_TIERING)};`,
      `const data = readFileSync(${JSON.stringify(cache)});`,
      // A file name of its own each time, so V8's in-memory compilation cache never answers instead.
      `const rejected = (name) => new Script(${source}, { cachedData: data, filename: name }).cachedDataRejected;`,
      `const held = rejected('held.js');`,
      `releaseOptimisation();`,
      `console.log(JSON.stringify({ held, released: rejected('released.js') }));`,
    ].join('\n');
    const out = execFileSync(process.execPath, [...runtimeFlags(), '--input-type=module', '-e', probe], { encoding: 'utf8' });
    assert.deepEqual(JSON.parse(out), { held: true, released: false });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
