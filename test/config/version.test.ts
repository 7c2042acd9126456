/**
 * Two versions, told apart. meta's `version` is the API version this server is compatible with, the
 * released 2.x line's (what the SDK reads): a plain "2.4.0", where "2.4.0-portcullis.0.1.0" before was a
 * SemVer pre-release that sorts below 2.4.0 (SemVer 2.0.0 section 11) and so failed any "at least 2.4.0"
 * check a client made. Portcullis's own release (package.json "version") is what `--version` prints first,
 * and what admin meta's `server_version` answers to an administrator (the console shows both); it is not
 * in the public meta, which says no more about the build than the API needs.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ADMIN_SECRET, startServer, type TestServer } from '../support/app.ts';
import { restClient } from '../support/rest-client.ts';
import { postGraphql } from '../graphql/client.ts';
import { createGrpcClient, type GrpcTestClient } from '../support/grpc-client.ts';
import { API_VERSION, PORTCULLIS_VERSION } from '../../server/version.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const PACKAGE_VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

describe('versions', () => {
  let server: TestServer;
  let grpc: GrpcTestClient;
  before(async () => {
    server = await startServer();
    grpc = createGrpcClient(server.ports.grpc!);
  });
  after(async () => {
    grpc?.close();
    await server?.close();
  });

  test('Portcullis\'s version is package.json\'s, and the API version is a plain 2.x release', () => {
    assert.equal(PORTCULLIS_VERSION, PACKAGE_VERSION);
    assert.match(API_VERSION, /^2\.\d+\.\d+$/);
  });

  test('--version names both', () => {
    const res = spawnSync(process.execPath, [join(ROOT, 'server', 'main.ts'), '--version'], { encoding: 'utf8', timeout: 60_000 });
    assert.equal(res.status, 0, res.stderr);
    assert.equal(res.stdout.trim(), `portcullis ${PACKAGE_VERSION} (API ${API_VERSION})`);
  });

  test('meta version is the API version over REST, GraphQL and gRPC', async () => {
    assert.equal((await restClient(server).get('/v1/meta')).body.version, API_VERSION);
    assert.deepEqual((await postGraphql(server, '{ meta { version } }')).body.data?.meta, { version: API_VERSION });
    assert.equal((await grpc.call('PublicService', 'Meta')).response.version, API_VERSION);
  });

  test('admin meta adds Portcullis\'s own version over REST, GraphQL and gRPC', async () => {
    const admin = { 'x-service-admin-secret': ADMIN_SECRET };
    const rest = (await restClient(server, admin).get('/v1/admin/meta')).body;
    assert.equal(rest.version, API_VERSION, JSON.stringify(rest));
    assert.equal(rest.server_version, PACKAGE_VERSION);
    const graphql = await postGraphql(server, '{ _admin_meta { version server_version } }', undefined, admin);
    assert.deepEqual(graphql.body.data?._admin_meta, { version: API_VERSION, server_version: PACKAGE_VERSION });
    const { response } = await grpc.call('AdminService', 'AdminMeta', {}, admin);
    assert.equal(response.version, API_VERSION);
    assert.equal(response.server_version, PACKAGE_VERSION);
  });
});
