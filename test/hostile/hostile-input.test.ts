/**
 * Property: no hostile input to any operation, over any protocol that carries it, makes the server fail
 * (HTTP 5xx, GraphQL INTERNAL, gRPC INTERNAL/UNKNOWN) or stall (/healthz, polled throughout, always answers,
 * and the server's event loop is never held for a second), and every refusal has the protocol's error shape.
 * The server runs as its own process: building a 100 MB hostile body holds the test's event loop, and that
 * must not be charged to the server. fast-check generates the inputs per
 * operation from its field names: deep nesting, NUL and control characters, lone surrogates, strings
 * near the body limit, wrong types, long arrays, prototype keys. Called with the admin secret, so admin
 * operations run their handlers too. Runs are bounded so the file finishes in well under a minute.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { status } from '@grpc/grpc-js';
import { eventLoopMaxLagMs, spawnServer, stopServer, SECRETS, type ServerProcess } from '../support/server-process.ts';
import { createGrpcClient, type GrpcFailure, type GrpcTestClient } from '../support/grpc-client.ts';
import { registry } from '../../server/ops/registry.ts';
import type { AnyOperation } from '../../server/ops/define.ts';
import { scalarKind, type TSchema } from '../../server/ops/schema.ts';
import { buildGraphqlSchema, graphqlRequestFor } from '../../server/transports/graphql/index.ts';
import { callRaw } from './grpc-raw.ts';
import { deepJson, postText, restPath, watchHealth, type RawReply } from './support.ts';

const ADMIN = { 'x-service-admin-secret': SECRETS.adminSecret };
const RUNS_PER_OPERATION = 8;
const graphqlSchema = buildGraphqlSchema(registry.all);

const anyUnit = fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code));
const hostileString = fc.oneof(
  fc.constantFrom('\u0000', 'a\u0000b', '\u0007bell', 'tab\there', 'line\nbreak', '\r\n', '\u007f', '\ud800', 'x\udfffy', '\u202egnp', '%00', "' OR 1=1 --", '${7*7}', '../../etc/passwd'),
  fc.string({ unit: anyUnit, maxLength: 40 }),
  fc.nat({ max: 5000 }).map((n) => 'x'.repeat(n)),
);
/** Strings as JSON text: JSON.stringify escapes lone surrogates (\ud800), which the server decodes back. */
const stringText = hostileString.map((s) => JSON.stringify(s));
const hostileText: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: stringText },
  { weight: 1, arbitrary: fc.oneof(fc.integer(), fc.double(), fc.boolean(), fc.constant(null)).map((v) => JSON.stringify(v)) },
  { weight: 1, arbitrary: fc.constantFrom(2 ** 53, -1, 1e308, 4294967296).map(String) },
  { weight: 2, arbitrary: fc.tuple(fc.integer({ min: 20, max: 10_000 }), fc.constantFrom('list', 'object') as fc.Arbitrary<'list' | 'object'>).map(([d, k]) => deepJson(d, k)) },
  { weight: 1, arbitrary: fc.tuple(fc.nat({ max: 20_000 }), stringText).map(([n, item]) => `[${Array(n).fill(item).join(',')}]`) },
  { weight: 1, arbitrary: fc.constantFrom('{"__proto__":{"admin":true}}', '{"constructor":{"prototype":{"admin":true}}}', '{"\\u0000":1}', '{}', '[]') },
  { weight: 1, arbitrary: fc.constant(JSON.stringify('y'.repeat(900_000))) },
);

function fieldsOf(op: AnyOperation): string[] {
  return Object.keys(op.input.properties ?? {});
}

function stringFieldsOf(op: AnyOperation): string[] {
  return Object.entries(op.input.properties ?? {}).filter(([, schema]) => scalarKind(schema as TSchema) === 'String').map(([name]) => name);
}

/** A JSON object text: some of the operation's fields (and prototype keys) set to hostile values. */
function hostileObject(op: AnyOperation): fc.Arbitrary<string> {
  const keys = fc.constantFrom(...fieldsOf(op), '__proto__', 'constructor', 'unknown_field');
  return fc.array(fc.tuple(keys, hostileText), { maxLength: 4 }).map((pairs) => `{${pairs.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(',')}}`);
}

const BODY_LIMIT_BYTES = 1024 * 1024;

/**
 * Posts a hostile body. A body over the 1 MiB limit is refused with 413 (RFC 9110 section 15.5.14) and the
 * server may close the connection before the client has finished sending: that cut-off is a refusal too,
 * and is accepted only for such bodies.
 */
async function postHostile(server: ServerProcess, path: string, body: string): Promise<RawReply | 'cut off'> {
  try {
    return await postText(server, path, body, ADMIN);
  } catch (err) {
    const code = ((err as Error).cause as NodeJS.ErrnoException | undefined)?.code;
    if (Buffer.byteLength(body) > BODY_LIMIT_BYTES && (code === 'EPIPE' || code === 'ECONNRESET')) return 'cut off';
    throw err;
  }
}

function assertRestShape(op: AnyOperation, reply: RawReply): void {
  assert.ok(reply.status < 500, `${op.name}: REST ${reply.status} ${reply.text.slice(0, 200)}`);
  if (reply.status >= 400) {
    assert.equal(typeof reply.body?.code, 'string', `${op.name}: REST error shape ${reply.text.slice(0, 200)}`);
    assert.equal(typeof reply.body?.message, 'string');
    assert.ok(reply.text.length < 8192, `${op.name}: a ${reply.text.length}-byte error`);
  }
}

function assertGraphqlShape(op: AnyOperation, reply: RawReply): void {
  assert.ok(reply.status < 500, `${op.name}: GraphQL HTTP ${reply.status} ${reply.text.slice(0, 200)}`);
  assert.ok(reply.body && typeof reply.body === 'object', `${op.name}: GraphQL reply is not JSON: ${reply.text.slice(0, 200)}`);
  for (const error of reply.body.errors ?? []) {
    assert.equal(typeof error.message, 'string');
    assert.equal(typeof error.extensions?.code, 'string', `${op.name}: no code in ${JSON.stringify(error).slice(0, 200)}`);
    assert.notEqual(error.extensions.code, 'INTERNAL', `${op.name}: ${error.message}`);
  }
  assert.ok(reply.text.length < 65_536, `${op.name}: a ${reply.text.length}-byte GraphQL reply`);
}

function assertGrpcOutcome(op: AnyOperation, code: number, details: string): void {
  assert.ok(![status.INTERNAL, status.UNKNOWN, status.DEADLINE_EXCEEDED, status.DATA_LOSS].includes(code), `${op.name}: gRPC ${status[code]} ${details}`);
  assert.ok(details.length <= 1024, `${op.name}: ${details.length} characters of details`);
}

describe('hostile input to every operation over every protocol', () => {
  let server: ServerProcess;
  let dir: string;
  let grpc: GrpcTestClient;
  let health: ReturnType<typeof watchHealth>;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'portcullis-hostile-'));
    server = await spawnServer(dir, []);
    grpc = createGrpcClient(server.ports.grpc);
    await eventLoopMaxLagMs(server); // resets the maximum: start-up is not under test
    health = watchHealth(server);
  });
  after(async () => {
    grpc.close();
    await stopServer(server);
    rmSync(dir, { recursive: true, force: true });
  });

  test('REST: no 5xx, the {code, message} shape', async () => {
    for (const op of registry.all) {
      const { method, path } = restPath(op);
      if (method === 'GET') {
        const params = fc.dictionary(fc.constantFrom(...fieldsOf(op), 'x'), hostileString, { maxKeys: 3 });
        await fc.assert(fc.asyncProperty(params, async (query) => {
          const res = await fetch(`${server.baseUrl}${path}?${new URLSearchParams(query)}`, { headers: { origin: server.baseUrl, ...ADMIN } });
          const text = await res.text();
          let body: unknown;
          try { body = JSON.parse(text); } catch { body = undefined; }
          assertRestShape(op, { status: res.status, text, body });
        }), { numRuns: RUNS_PER_OPERATION });
        continue;
      }
      await fc.assert(fc.asyncProperty(hostileObject(op), async (body) => {
        const reply = await postHostile(server, path, body);
        if (reply !== 'cut off') assertRestShape(op, reply);
      }), { numRuns: RUNS_PER_OPERATION });
    }
  });

  test('GraphQL: no INTERNAL, every reply JSON in the GraphQL shape', async () => {
    for (const op of registry.all) {
      const { query } = graphqlRequestFor(graphqlSchema, op, {});
      await fc.assert(fc.asyncProperty(hostileObject(op), async (input) => {
        const variables = op.graphql?.flatArgs ? input : `{${JSON.stringify(op.graphqlArgName)}:${input}}`;
        const reply = await postHostile(server, '/graphql', `{"query":${JSON.stringify(query)},"variables":${variables}}`);
        if (reply !== 'cut off') assertGraphqlShape(op, reply);
      }), { numRuns: RUNS_PER_OPERATION });
    }
  });

  test('GraphQL documents: deep literals and selections, odd tokens', async () => {
    const op = registry.all.find((candidate) => candidate.name === 'login')!;
    const documents = fc.oneof(
      fc.integer({ min: 30, max: 10_000 }).map((d) => `mutation { login(params: {email: ${'['.repeat(d)}${']'.repeat(d)}}) { message } }`),
      fc.integer({ min: 30, max: 10_000 }).map((d) => `query { meta ${'{ a '.repeat(d)}${'}'.repeat(d + 1)}`),
      fc.string({ unit: anyUnit, maxLength: 200 }),
      hostileString.map((s) => `mutation { login(params: {email: ${JSON.stringify(s)}, password: "x"}) { message } }`),
    );
    await fc.assert(fc.asyncProperty(documents, async (query) => {
      assertGraphqlShape(op, await postText(server, '/graphql', JSON.stringify({ query }), ADMIN));
    }), { numRuns: 40 });
  });

  test('gRPC: no INTERNAL or UNKNOWN, hostile strings and undecodable bytes', async () => {
    for (const op of registry.all) {
      if (!op.grpcMethod) continue;
      const strings = stringFieldsOf(op);
      const input = fc.dictionary(fc.constantFrom(...strings, 'x'), hostileString, { maxKeys: 3 });
      await fc.assert(fc.asyncProperty(input, async (request) => {
        try {
          await grpc.call(op.grpcService, op.grpcMethod!, request, ADMIN);
        } catch (err) {
          const failure = err as GrpcFailure;
          assertGrpcOutcome(op, failure.code, failure.details);
        }
      }), { numRuns: RUNS_PER_OPERATION });
      await fc.assert(fc.asyncProperty(fc.uint8Array({ maxLength: 64 }), async (bytes) => {
        const outcome = await callRaw(server.ports.grpc, op.grpcService, op.grpcMethod!, Buffer.from(bytes), ADMIN);
        assertGrpcOutcome(op, outcome.code, outcome.details);
      }), { numRuns: 2 });
    }
  });

  test('/healthz answered throughout and the event loop was never held a second', async () => {
    const { answered, failed } = await health.stop();
    assert.ok(answered > 10, `only ${answered} /healthz answers`);
    assert.equal(failed, 0, `${failed} /healthz polls failed`);
    const lag = await eventLoopMaxLagMs(server);
    assert.ok(lag < 1000, `the server's event loop was held ${Math.round(lag)} ms`);
    assert.equal(server.child.exitCode, null, `the server exited: ${server.stderr().slice(-500)}`);
  });
});
