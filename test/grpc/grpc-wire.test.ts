/**
 * Conversions the real operations do not exercise yet, end to end over loopback with a fixture registry:
 * Struct <-> JSON for Map fields, optional scalars keeping their absence, int64, lists and nested messages,
 * peer address and bearer credential, cookies sent on failure, and the internal-error mask.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import protobuf from 'protobufjs';
import { status } from '@grpc/grpc-js';
import { startServer, type TestServer } from '../support/app.ts';
import { createGrpcClient, refusal, type GrpcTestClient } from '../support/grpc-client.ts';
import { jsonToStruct, structToJson } from '../../server/transports/grpc/wire.ts';
import { peerAddress } from '../../server/transports/grpc/call-context.ts';
import { fixtureRegistry } from './fixtures.ts';

const ATTRS = { name: 'x', n: 1.5, zero: 0, yes: true, no: false, none: null, list: [1, 'a', { deep: [] }], obj: { k: 'v' } };

describe('gRPC wire conversions (fixture registry)', () => {
  let server: TestServer;
  let grpc: GrpcTestClient;

  before(async () => {
    server = await startServer([], { registry: fixtureRegistry });
    grpc = createGrpcClient(server.ports.grpc!, fixtureRegistry);
  });

  after(async () => {
    grpc.close();
    await server.close();
  });

  test('every field kind round-trips; Map travels as Struct', async () => {
    const request = {
      text: 'hello',
      note: '',
      flag: false,
      maybe: false,
      count: -7,
      big: 2 ** 40 + 3,
      tags: ['a', 'b'],
      attrs: ATTRS,
      point: { x: 0, label: 'origin' },
      points: [{ x: 1 }, { x: 2, label: '' }],
    };
    const { response } = await grpc.call('PublicService', 'Echo', request, { authorization: 'Bearer tok-123' });
    const rest = await fetch(`${server.baseUrl}/v1/echo`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer tok-123', origin: 'http://127.0.0.1:8080' },
      body: JSON.stringify(request),
    });
    assert.deepEqual(response, await rest.json(), 'same answer as REST');
    // The pipeline drops nulls (validate.ts dropNulls), inside Map values too, whatever the protocol.
    const { none: _none, ...attrsWithoutNull } = ATTRS;
    assert.deepEqual(response.echo, { ...request, attrs: attrsWithoutNull });
    assert.equal(response.ip, '127.0.0.1');
    assert.equal(response.bearer, 'tok-123');
  });

  test('absent scalars stay absent: a missing required one is refused like REST; optional ones stay out', async () => {
    const failure = await refusal(grpc.call('PublicService', 'Echo', {}));
    assert.equal(failure.code, status.INVALID_ARGUMENT);
    assert.match(failure.details, /^text: /);
    const { response } = await grpc.call('PublicService', 'Echo', { text: '', flag: false, count: 0, big: 0 });
    assert.deepEqual(response.echo, { text: '', flag: false, count: 0, big: 0, tags: [], points: [] });
    assert.deepEqual(response.present, ['big', 'count', 'flag', 'points', 'tags', 'text']);
    assert.equal(response.bearer, undefined);
  });

  test('cookies set before a failure still arrive as set-cookie metadata', async () => {
    const failure = await refusal(grpc.call('PublicService', 'CookieThenFail'));
    assert.equal(failure.code, status.FAILED_PRECONDITION);
    assert.equal(failure.details, 'refused after setting a cookie');
    assert.deepEqual(failure.metadata.get('set-cookie').map(String), ['probe=a%20b; Path=/; Max-Age=60; HttpOnly; SameSite=Lax']);
  });

  test('an unexpected error is INTERNAL with a request id and no detail', async () => {
    const failure = await refusal(grpc.call('PublicService', 'Crash'));
    assert.equal(failure.code, status.INTERNAL);
    assert.match(failure.details, /^internal server error \(request id [0-9a-f-]{36}\)$/);
    assert.doesNotMatch(failure.details, /hunter2/);
  });

  test('an operation marked grpc: false is UNIMPLEMENTED', async () => {
    const failure = await refusal(grpc.call('PublicService', 'GraphqlOnly'));
    assert.equal(failure.code, status.UNIMPLEMENTED);
  });
});

describe('Struct conversion', () => {
  const structType = (() => {
    const root = new protobuf.Root();
    root.addJSON(protobuf.common.get('google/protobuf/struct.proto')!.nested!);
    return root.lookupType('google.protobuf.Struct');
  })();

  test('jsonToStruct produces the canonical google.protobuf.Struct', () => {
    const bytes = structType.encode(structType.fromObject(jsonToStruct(ATTRS))).finish();
    const decoded = structType.toObject(structType.decode(bytes), { enums: String }) as {
      fields: Record<string, Record<string, unknown>>;
    };
    assert.deepEqual(decoded.fields.name, { stringValue: 'x' });
    assert.deepEqual(decoded.fields.zero, { numberValue: 0 });
    assert.deepEqual(decoded.fields.no, { boolValue: false });
    assert.deepEqual(decoded.fields.none, { nullValue: 'NULL_VALUE' });
    assert.deepEqual(decoded.fields.obj, { structValue: { fields: { k: { stringValue: 'v' } } } });
    assert.deepEqual(structToJson(decoded), ATTRS);
  });

  test('values JSON cannot hold become null, like JSON.stringify', () => {
    assert.deepEqual(structToJson(jsonToStruct({ a: Number.NaN, b: new Date(0) })), { a: null, b: '1970-01-01T00:00:00.000Z' });
  });
});

test('peerAddress strips the port from what grpc-js reports', () => {
  assert.equal(peerAddress('127.0.0.1:5432'), '127.0.0.1');
  assert.equal(peerAddress('::1:5432'), '::1');
  assert.equal(peerAddress('::ffff:127.0.0.1:80'), '::ffff:127.0.0.1');
  assert.equal(peerAddress('ipv6:[::1]:80'), '::1');
  assert.equal(peerAddress('ipv4:10.0.0.1:1'), '10.0.0.1');
  assert.equal(peerAddress('unknown'), 'unknown');
  assert.equal(peerAddress('/tmp/socket'), '/tmp/socket');
});
