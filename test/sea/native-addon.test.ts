/**
 * build/native-addons.ts: a native addon (@node-rs/argon2's N-API binding) bundled with the server's build
 * options travels as a bundle asset (not as text inside the bundle), works from a folder with no
 * node_modules, and leaves no temporary file (the executable's temporary copy: test/sea/sea.test.ts logins).
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { build } from 'esbuild';
import { buildOptions, findDynamicImports, ROOT } from '../../build/bundle.ts';

const ENTRY = `
import { hash, verify } from '@node-rs/argon2';
async function main() {
  const phc = await hash('correct horse', { memoryCost: 19456, timeCost: 2, parallelism: 1 });
  console.log(JSON.stringify({ phc, good: await verify(phc, 'correct horse'), bad: await verify(phc, 'wrong') }));
}
main().catch((err) => { console.error(err.message); process.exit(1); });
`;

describe('embedded native addons', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'portcullis-addon-test-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('argon2 hashes and verifies from a bundle run with no node_modules, leaving no temporary file', async () => {
    writeFileSync(join(dir, 'entry.ts'), ENTRY);
    const embedded: string[] = [];
    const outfile = join(dir, 'run', 'bundle.cjs');
    await build({ ...buildOptions(embedded), entryPoints: [join(dir, 'entry.ts')], outfile, nodePaths: [join(ROOT, 'node_modules')], metafile: false, logLevel: 'error' });
    assert.equal(embedded.length, 1);
    assert.match(embedded[0] ?? '', /argon2\.[\w-]+\.node$/);
    assert.deepEqual(findDynamicImports(readFileSync(outfile, 'utf8')), []);
    assert.ok(existsSync(join(dir, 'run', 'assets', basename(embedded[0]!))), 'the addon is copied to the assets folder beside the bundle');
    assert.ok(!readFileSync(outfile, 'utf8').includes('f0VMRgIB'), 'no base64 ELF image inside the bundle');

    const privateTmp = join(dir, 'tmp');
    mkdirSync(privateTmp);
    const stdout = execFileSync(process.execPath, [outfile], { cwd: join(dir, 'run'), env: { PATH: process.env.PATH, TMPDIR: privateTmp }, encoding: 'utf8' });
    const result = JSON.parse(stdout) as { phc: string; good: boolean; bad: boolean };
    assert.match(result.phc, /^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    assert.equal(result.good, true);
    assert.equal(result.bad, false);
    assert.deepEqual(readdirSync(privateTmp), [], 'the temporary copy of the addon is removed after loading');
  });
});
