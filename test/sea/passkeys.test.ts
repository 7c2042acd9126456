/**
 * Passkeys in the single executable: @simplewebauthn/server (with its ASN.1 and X.509 packages) is not in
 * the main script (build/driver-bundles.ts bundles it as an asset, loaded by the first ceremony through the
 * lowered `import()` of modules/webauthn/relying-party.ts), and the executable, alone in an empty folder,
 * registers a passkey and signs in with it.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { SoftAuthenticator } from '../support/soft-authenticator.ts';
import { freePorts, isolatedCopy, run, serverFlags, stop, waitFor200, type Running, mainScriptInputs } from './executable.ts';

describe('single executable: passkeys', () => {
  let copy: ReturnType<typeof isolatedCopy>;
  let server: Running;
  let base: string;
  const post = async (path: string, body: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', origin: base, ...headers }, body: JSON.stringify(body) });
    return { status: res.status, body: (await res.json()) as any };
  };

  before(async () => {
    copy = isolatedCopy();
    const ports = await freePorts();
    base = `http://127.0.0.1:${ports.http}`;
    server = run(copy.executable, serverFlags(copy.dir, ports), copy.dir);
    await waitFor200(`${base}/readyz`, server, performance.now());
  });
  after(async () => {
    if (server) await stop(server);
    copy?.cleanup();
  });

  test('the main script holds no part of @simplewebauthn/server', () => {
    const main = mainScriptInputs();
    assert.deepEqual(main.bundled('@simplewebauthn'), [], '@simplewebauthn/server is bundled into the main script');
    assert.ok(main.separated('@simplewebauthn/server'), 'the main script loads it from its asset');
  });

  test('registers a passkey and signs in with it', async () => {
    const email = `sea-passkey-${Date.now()}@example.com`;
    const password = 'Sea-Passkey-Passw0rd!';
    assert.equal((await post('/v1/signup', { email, password, confirm_password: password })).status, 200);
    const login = await post('/v1/login', { email, password });
    const bearer = { authorization: `Bearer ${login.body.access_token}` };
    const authenticator = new SoftAuthenticator(base);
    const options = await post('/v1/webauthn_registration_options', {}, bearer);
    assert.equal(options.status, 200, JSON.stringify(options.body));
    const registered = await post('/v1/webauthn_registration_verify', { credential: authenticator.register(options.body.options) }, bearer);
    assert.equal(registered.status, 200, JSON.stringify(registered.body));
    const loginOptions = await post('/v1/webauthn_login_options', { email });
    const signedIn = await post('/v1/webauthn_login_verify', { credential: authenticator.assert(loginOptions.body.options) });
    assert.equal(signedIn.status, 200, JSON.stringify(signedIn.body));
    assert.equal(signedIn.body.user.email, email);
    assert.equal(server.output().stderr, '');
  });
});
