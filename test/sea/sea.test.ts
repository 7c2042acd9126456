/**
 * The single executable (dist/portcullis, built by `npm run build && npm run sea`) run alone in an empty
 * folder: serves /healthz on a fresh SQLite file, metrics only on the metrics listener (docs/api-overview.md#http-endpoints-outside-v1),
 * lists every flag in --help, refuses bad configuration with one line naming the flag and a non-zero exit
 * (docs/errors.md#startup-refusals), and exits 0 on SIGTERM after a graceful shutdown.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { credentials, loadPackageDefinition as grpcPackage, type ServiceClientConstructor } from '@grpc/grpc-js';
import { ALL_FLAGS } from '../../server/config/flags.ts';
import { loadPackageDefinition } from '../../server/transports/grpc/load-definition.ts';
import { freePorts, isolatedCopy, run, serverFlags, stop, waitFor200, SECRETS, type Ports, type Running } from './executable.ts';

/** The one gRPC call used here: PublicService.Meta (generated proto contract). */
interface MetaClient {
  Meta(request: object, callback: (err: Error | null, response: { client_id?: string }) => void): void;
  close(): void;
}

describe('single executable', () => {
  let copy: ReturnType<typeof isolatedCopy>;
  before(() => {
    copy = isolatedCopy();
  });
  after(() => copy?.cleanup());

  describe('a server started from an empty folder', () => {
    let ports: Ports;
    let server: Running;
    before(async () => {
      ports = await freePorts();
      server = run(copy.executable, serverFlags(copy.dir, ports), copy.dir);
      await waitFor200(`http://127.0.0.1:${ports.http}/healthz`, server, performance.now());
    });
    after(async () => {
      if (server) await stop(server);
    });

    test('answers /healthz with the database up, on a SQLite file it created', async () => {
      const response = await fetch(`http://127.0.0.1:${ports.http}/healthz`);
      assert.equal(response.status, 200);
      assert.deepEqual(await response.json(), { status: 'ok' });
      assert.ok(existsSync(join(copy.dir, 'portcullis.db')), 'the SQLite file is created where --database-url points');
    });

    test('serves /metrics on the metrics port and not on the main port', async () => {
      const metrics = await fetch(`http://127.0.0.1:${ports.metrics}/metrics`);
      assert.equal(metrics.status, 200);
      assert.match(metrics.headers.get('content-type') ?? '', /^text\/plain/);
      const body = await metrics.text();
      assert.match(body, /^process_cpu_user_seconds_total /m);
      assert.match(body, /portcullis_http_requests_total\{[^}]*route="\/healthz"/);

      const onMain = await fetch(`http://127.0.0.1:${ports.http}/metrics`);
      await onMain.arrayBuffer();
      assert.equal(onMain.status, 404);
    });

    test('answers GraphQL and gRPC (the bundled transports work without node_modules)', async () => {
      const origin = `http://127.0.0.1:${ports.http}`;
      const graphql = await fetch(`${origin}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin },
        body: JSON.stringify({ query: '{ meta { client_id } }' }),
      });
      assert.equal(graphql.status, 200);
      assert.deepEqual(await graphql.json(), { data: { meta: { client_id: 'sea-client' } } });

      const protoText = readFileSync(join(import.meta.dirname, '..', '..', 'proto', 'portcullis', 'v1', 'portcullis.proto'), 'utf8');
      const services = grpcPackage(loadPackageDefinition(protoText)) as unknown as {
        portcullis: { v1: { PublicService: ServiceClientConstructor } };
      };
      const PublicService = services.portcullis.v1.PublicService;
      const client = new PublicService(`127.0.0.1:${ports.grpc}`, credentials.createInsecure()) as unknown as MetaClient;
      try {
        const meta = await new Promise<{ client_id?: string }>((resolve, reject) =>
          client.Meta({}, (err, response) => (err ? reject(err) : resolve(response))),
        );
        assert.equal(meta.client_id, 'sea-client');
      } finally {
        client.close();
      }
    });

    test('never writes a secret to its output', () => {
      const { stdout, stderr } = server.output();
      assert.match(stdout, /portcullis started/);
      for (const secret of Object.values(SECRETS)) {
        assert.ok(!stdout.includes(secret) && !stderr.includes(secret), 'a secret flag value appeared in the output');
      }
    });

    test('runs on the code cache built into it, under the flags of sea-config.json, warning about nothing', () => {
      // V8 rejects a code cache made under other flags than the executable's execArgv, and Node warns on stderr.
      assert.equal(server.output().stderr, '');
    });

    test('exits 0 on SIGTERM', async () => {
      const ended = await stop(server);
      assert.deepEqual(ended, { code: 0, signal: null });
    });
  });

  test('--help lists every flag', async () => {
    const help = run(copy.executable, ['--help'], copy.dir);
    const ended = await help.exited;
    assert.equal(ended.code, 0);
    const { stdout } = help.output();
    const missing = ALL_FLAGS.filter((flag) => !new RegExp(`--${flag.name}\\b(?!-)`).test(stdout)).map((f) => f.name);
    assert.deepEqual(missing, []);
  });

  test('refuses an empty --admin-secret with one line naming the flag and a non-zero exit', async () => {
    const ports = await freePorts();
    const refused = run(copy.executable, serverFlags(copy.dir, ports, ['--admin-secret', '']), copy.dir);
    const ended = await refused.exited;
    assert.notEqual(ended.code, 0);
    assert.equal(ended.signal, null);
    const { stdout, stderr } = refused.output();
    assert.equal(stdout, '');
    const lines = stderr.trimEnd().split('\n');
    assert.equal(lines.length, 1, `expected one line, got: ${stderr}`);
    assert.match(lines[0] ?? '', /--admin-secret/);
  });
});
