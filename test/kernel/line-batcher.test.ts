/**
 * The logger's batching destination (kernel/line-batcher.ts): lines reach the sink together once a batch
 * fills, within the delay otherwise, on flush, and at exit, in the order they were written.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { LineBatcher } from '../../server/kernel/line-batcher.ts';
import { createLogger } from '../../server/kernel/logger.ts';

function sink(): { write: (text: string) => void; writes: string[] } {
  const writes: string[] = [];
  return { write: (text) => void writes.push(text), writes };
}

describe('LineBatcher', () => {
  test('holds lines until the batch fills, then writes them as one text, in order', () => {
    const out = sink();
    const batcher = new LineBatcher(out, { batchChars: 30, maxDelayMs: 60_000 });
    batcher.write('first line\n');
    batcher.write('second line\n');
    assert.deepEqual(out.writes, []);
    batcher.write('third line\n');
    assert.deepEqual(out.writes, ['first line\nsecond line\nthird line\n']);
    batcher.write('fourth\n');
    assert.equal(out.writes.length, 1);
    batcher.end();
    assert.deepEqual(out.writes, ['first line\nsecond line\nthird line\n', 'fourth\n']);
  });

  test('writes a batch that does not fill within the delay', async () => {
    const out = sink();
    const batcher = new LineBatcher(out, { batchChars: 4096, maxDelayMs: 20 });
    batcher.write('lonely line\n');
    assert.deepEqual(out.writes, []);
    await new Promise((done) => setTimeout(done, 80));
    assert.deepEqual(out.writes, ['lonely line\n']);
    batcher.end();
    assert.equal(out.writes.length, 1, 'nothing is written twice');
  });

  test('flush writes what has gathered and calls back', () => {
    const out = sink();
    const batcher = new LineBatcher(out, { batchChars: 4096, maxDelayMs: 60_000 });
    batcher.write('a\n');
    let called = false;
    batcher.flush(() => (called = true));
    assert.deepEqual(out.writes, ['a\n']);
    assert.ok(called);
    batcher.flush();
    assert.equal(out.writes.length, 1, 'an empty batch is not written');
    batcher.end();
  });

  test("the server's logger writes its gathered lines to stdout when the process exits", () => {
    const script = [
      `import { createLogger } from ${JSON.stringify(new URL('../../server/kernel/logger.ts', import.meta.url).href)};`,
      `const logger = createLogger('info');`,
      `logger.info({ n: 1 }, 'before exit');`,
      `logger.warn('last words');`,
      `process.exit(3);`,
    ].join('\n');
    const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
    assert.equal(child.status, 3, child.stderr);
    const lines = child.stdout.trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    assert.deepEqual(lines.map((line) => line.msg), ['before exit', 'last words']);
    assert.equal(lines[0]!.service, 'portcullis');
  });

  test('a logger given its own destination writes to it unbatched', () => {
    const out = sink();
    const logger = createLogger('info', out);
    logger.info('direct');
    assert.equal(out.writes.length, 1);
    assert.match(out.writes[0]!, /"msg":"direct"/);
  });
});
