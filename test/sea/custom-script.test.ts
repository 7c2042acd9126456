/**
 * The custom access-token script inside the single executable (dist/portcullis): its QuickJS sandbox worker
 * is bundled into the executable (build/bundle.ts inlines it; no .wasm or worker file exists beside the
 * executable), so a login on the executable carries the script's claim, and the node:vm escape finds no host
 * there either.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { decodeJwt } from 'jose';
import { freePorts, isolatedCopy, run, serverFlags, stop, waitFor200, type Ports, type Running } from './executable.ts';
import { signedInUser } from '../support/signed-in-user.ts';

const PASSWORD = 'Sea-Script-Passw0rd!';

describe('single executable with --custom-access-token-script', () => {
  let copy: ReturnType<typeof isolatedCopy>;
  let ports: Ports;
  let server: Running;
  let marker: string;
  before(async () => {
    copy = isolatedCopy();
    marker = join(copy.dir, 'escaped');
    const script = `function (user) {
      if ((user.email || '').indexOf('escape') === 0) {
        var got;
        try { got = this.constructor.constructor('return process')(); } catch (e) { return { probe: 'blocked' }; }
        if (got && got.getBuiltinModule) got.getBuiltinModule('node:fs').writeFileSync(${JSON.stringify(marker)}, 'escaped');
        return { probe: typeof got };
      }
      return { department: 'engineering', greeting: 'hello ' + user.email };
    }`;
    ports = await freePorts();
    server = run(copy.executable, serverFlags(copy.dir, ports, ['--custom-access-token-script', script]), copy.dir);
    await waitFor200(`http://127.0.0.1:${ports.http}/healthz`, server, performance.now());
  });
  after(async () => {
    if (server) await stop(server);
    copy?.cleanup();
  });

  const login = async (email: string): Promise<Record<string, unknown>> =>
    decodeJwt((await signedInUser({ baseUrl: `http://127.0.0.1:${ports.http}` }, { email, password: PASSWORD })).accessToken);

  test('a login carries the claim the script adds', async () => {
    const access = await login('sea-script@example.com');
    assert.equal(access.department, 'engineering');
    assert.equal(access.greeting, 'hello sea-script@example.com');
  });

  test('the node:vm escape finds no host in the executable either', async () => {
    const access = await login('escape@example.com');
    assert.equal(access.probe, 'blocked');
    assert.equal(existsSync(marker), false, 'the script wrote to the host file system');
    const { stderr } = server.output();
    assert.doesNotMatch(stderr, /Aborted|sandbox failed/);
  });
});
