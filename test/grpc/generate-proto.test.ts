/** The proto generator on the fixture registry: shapes, determinism, and the errors it must raise. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRegistry } from '../../server/ops/registry.ts';
import { defineOperation, type AnyOperation } from '../../server/ops/define.ts';
import { MessageResponse, s } from '../../server/ops/schema.ts';
import { generateProto } from '../../server/transports/grpc/generate-proto.ts';
import { loadPackageDefinition } from '../../server/transports/grpc/load-definition.ts';
import { cookieThenFailOp, crashOp, echoOp, fixtureRegistry, graphqlOnlyOp } from './fixtures.ts';

const proto = generateProto(fixtureRegistry);

test('fields map to proto3 types, optional scalars are `optional`, Map is Struct', () => {
  assert.match(proto, /^import "google\/protobuf\/struct.proto";$/m);
  const echo = /message EchoRequest \{\n([\s\S]*?)\n\}/.exec(proto)?.[1];
  assert.equal(
    echo,
    [
      '  // Any text',
      '  optional string text = 1;',
      '  optional string note = 2;',
      '  optional bool flag = 3;',
      '  optional bool maybe = 4;',
      '  optional int32 count = 5;',
      '  optional int64 big = 6;',
      '  repeated string tags = 7;',
      '  repeated string extra_tags = 8;',
      '  google.protobuf.Struct attrs = 9;',
      '  Point point = 10;',
      '  repeated Point points = 11;',
    ].join('\n'),
  );
  assert.match(proto, /\/\/ A labelled point\nmessage Point \{\n  optional int32 x = 1;\n  optional string label = 2;\n\}/);
  assert.match(proto, /^message Empty \{\}$/m);
});

test('one rpc per gRPC operation with multi-line descriptions as comments; grpc: false is left out', () => {
  assert.match(proto, /  \/\/ Returns its input\n  \/\/ and what the transport saw\n  rpc Echo\(EchoRequest\) returns \(EchoResponse\);/);
  assert.match(proto, /rpc CookieThenFail\(Empty\) returns \(Response\);/);
  assert.doesNotMatch(proto, /GraphqlOnly/);
  assert.match(proto, /^service AdminService \{\}$/m);
});

test('output does not depend on registry order, and the text loads', () => {
  const shuffled = createRegistry([graphqlOnlyOp, crashOp, echoOp, cookieThenFailOp] as unknown as AnyOperation[]);
  assert.equal(generateProto(shuffled), proto);
  const definition = loadPackageDefinition(proto);
  assert.ok(definition['portcullis.v1.PublicService']);
  assert.ok(definition['google.protobuf.Struct']);
});

test('no Struct import when no Map field is served', () => {
  const plain = createRegistry([crashOp] as unknown as AnyOperation[]);
  assert.doesNotMatch(generateProto(plain), /import/);
});

function opWith(name: string, input: ReturnType<typeof s.object>): AnyOperation {
  return defineOperation({
    name,
    admin: false,
    kind: 'query',
    description: name,
    input,
    output: MessageResponse,
    auth: 'public',
    handler: async () => ({ message: '' }),
  }) as unknown as AnyOperation;
}

test('two different schemas under one name are refused', () => {
  const a = opWith('a', s.object('Clash', { x: s.string() }));
  const b = opWith('b', s.object('Clash', { x: s.optional(s.string()) }));
  assert.throws(() => generateProto(createRegistry([a, b])), /two different schemas are both named Clash/);
});

test('shapes protobuf cannot express are refused with the field named', () => {
  const nested = opWith('c', s.object('Nested', { grid: s.list(s.list(s.int())) }));
  assert.throws(() => generateProto(createRegistry([nested])), /Nested\.grid: lists of lists/);
  const dashed = opWith('d', s.object('Dashed', { 'bad-name': s.string() }));
  assert.throws(() => generateProto(createRegistry([dashed])), /Dashed\.bad-name: not a valid protobuf field name/);
});

test('two operations on the same rpc name are refused', () => {
  const one = defineOperation({ ...echoOp, name: 'echo_one', grpc: { method: 'Same' } }) as unknown as AnyOperation;
  const two = defineOperation({ ...crashOp, name: 'echo_two', grpc: { method: 'Same' } }) as unknown as AnyOperation;
  assert.throws(() => generateProto(createRegistry([one, two])), /two operations are both PublicService\.Same/);
});
