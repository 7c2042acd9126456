/**
 * The MySQL/MariaDB driver is not part of the executable's main script: build/driver-bundles.ts bundles it
 * on its own into a SEA asset, evaluated when MikroORM's dialect first requires it (build/driver-loader.ts).
 * The executable, alone in an empty folder, serves a sign-up and a login on MariaDB through it.
 * (MongoDB's driver goes the same way; no MongoDB server can be had here.)
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createTestDatabase, type TestDatabase } from '../support/databases.ts';
import { freePorts, isolatedCopy, run, serverFlags, stop, waitFor200, type Ports, type Running, mainScriptInputs } from './executable.ts';

describe('single executable on MariaDB (driver loaded from its asset)', () => {
  let copy: ReturnType<typeof isolatedCopy>;
  let database: TestDatabase;
  let ports: Ports;
  let server: Running;
  before(async () => {
    copy = isolatedCopy();
    database = await createTestDatabase('mariadb');
    ports = await freePorts();
    server = run(copy.executable, serverFlags(copy.dir, ports, database.flags), copy.dir);
    await waitFor200(`http://127.0.0.1:${ports.http}/readyz`, server, performance.now());
  });
  after(async () => {
    if (server) await stop(server);
    await database?.cleanup();
    copy?.cleanup();
  });

  test('the main script holds no MySQL driver', () => {
    const main = mainScriptInputs();
    for (const name of ['mysql2', 'mongodb']) {
      assert.deepEqual(main.bundled(name), [], `${name} is bundled into the main script`);
      assert.ok(main.separated(name), `${name} is not loaded from its asset`);
    }
  });

  test('signs up and logs in', async () => {
    const base = `http://127.0.0.1:${ports.http}`;
    const post = (path: string, body: unknown) =>
      fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', origin: base }, body: JSON.stringify(body) });
    const credentials = { email: 'sea-mariadb@example.com', password: 'Sea-Maria-Passw0rd!' };
    const signup = await post('/v1/signup', { ...credentials, confirm_password: credentials.password });
    assert.equal(signup.status, 200, await signup.clone().text());
    const login = await post('/v1/login', credentials);
    assert.equal(login.status, 200);
    assert.equal(typeof ((await login.json()) as { access_token?: unknown }).access_token, 'string');
    assert.equal(server.output().stderr, '');
  });
});
