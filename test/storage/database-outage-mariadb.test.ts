/**
 * A MariaDB outage under a running server (docs/deployment.md#when-the-database-is-down), through mysql2:
 * the server reaches MariaDB through a proxy the test cuts (open connections reset, new ones refused) and
 * restores, since the MariaDB server is shared with other tests. While cut, a write answers REST 503
 * `unavailable` with Retry-After, gRPC UNAVAILABLE, and /readyz 503, each within the bound; once restored,
 * the same write succeeds without restarting the server.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, ADMIN_SECRET, type TestServer } from '../support/app.ts';
import { createGrpcClient, refusal, type GrpcTestClient } from '../support/grpc-client.ts';
import { createTestDatabase, type TestDatabase } from '../support/databases.ts';
import { startCuttableProxy, type CuttableProxy } from '../support/cuttable-proxy.ts';
import { registry } from '../../server/ops/registry.ts';

const BOUND_MS = 3_000;
const createUser = registry.all.find((op) => op.name === 'create_user')!;

let db: TestDatabase;
let proxy: CuttableProxy;
let server: TestServer;
let grpc: GrpcTestClient;
let created = 0;

function restCreateUser(): Promise<Response> {
  return fetch(`${server.baseUrl}/v1/admin/create_user`, {
    method: 'POST',
    headers: { 'x-service-admin-secret': ADMIN_SECRET, origin: 'http://127.0.0.1:8080', 'content-type': 'application/json' },
    body: JSON.stringify({ email: `mariadb-outage-${++created}@example.com`, password: 'Initial-pass-42' }),
  });
}

function grpcCreateUser() {
  return grpc.call(createUser.grpcService, createUser.grpcMethod!, { email: `mariadb-outage-${++created}@example.com`, password: 'Initial-pass-42' }, {
    'x-service-admin-secret': ADMIN_SECRET,
  });
}

describe('a MariaDB outage under a running server', () => {
  before(async () => {
    db = await createTestDatabase('mariadb');
    proxy = await startCuttableProxy(3306);
    server = await startServer(['--database-type', 'mariadb', '--database-url', `mysql://root@127.0.0.1:${proxy.port}/${db.name}`]);
    grpc = createGrpcClient(server.ports.grpc!);
  });

  after(async () => {
    grpc?.close();
    await server?.close();
    await proxy?.close();
    await db?.cleanup();
  });

  test('served, then refused with "retry later" within the bound while cut, then served again once restored', async (t) => {
    assert.equal((await restCreateUser()).status, 200);
    await grpcCreateUser();

    await proxy.cut();
    for (let round = 1; round <= 2; round++) {
      let started = performance.now();
      const rest = await restCreateUser();
      const restMs = performance.now() - started;
      assert.equal(rest.status, 503, `round ${round}: ${await rest.clone().text()}`);
      assert.equal(rest.headers.get('retry-after'), '5');
      assert.equal((await rest.json()).code, 'unavailable');
      started = performance.now();
      const failure = await refusal(grpcCreateUser());
      const grpcMs = performance.now() - started;
      assert.equal(failure.code, 14, `round ${round}: ${failure.details}`);
      started = performance.now();
      assert.equal((await fetch(`${server.baseUrl}/readyz`)).status, 503);
      const readyMs = performance.now() - started;
      const slowest = Math.max(restMs, grpcMs, readyMs);
      assert.ok(slowest <= BOUND_MS, `round ${round}: slowest refusal ${slowest} ms`);
      t.diagnostic(`round ${round}: slowest refusal ${Math.round(slowest)} ms`);
    }

    await proxy.restore();
    assert.equal((await restCreateUser()).status, 200, 'served again without a restart');
    await grpcCreateUser();
    assert.equal((await fetch(`${server.baseUrl}/readyz`)).status, 200);
  });
});
