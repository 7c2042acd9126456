/**
 * The protobuf codecs load with the first gRPC call (transports/grpc/codecs.ts): on a fresh server, calls
 * arriving together before any codec exists all answer as usual, and undecodable bytes as the very first
 * call are INVALID_ARGUMENT (the caller's mistake), not INTERNAL.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { status } from '@grpc/grpc-js';
import { ADMIN_SECRET, startServer } from '../support/app.ts';
import { createGrpcClient, refusal } from '../support/grpc-client.ts';
import { callRaw } from '../hostile/grpc-raw.ts';

test('concurrent first gRPC calls of a fresh server answer as usual', async () => {
  const server = await startServer();
  const grpc = createGrpcClient(server.ports.grpc!);
  try {
    const rest = await (await fetch(`${server.baseUrl}/v1/meta`)).json();
    const [meta, again, admin, refused] = await Promise.all([
      grpc.call('PublicService', 'Meta'),
      grpc.call('PublicService', 'Meta'),
      grpc.call('AdminService', 'AdminLogin', { admin_secret: ADMIN_SECRET }),
      refusal(grpc.call('AdminService', 'AdminLogin', {})),
    ]);
    assert.deepEqual(meta.response, rest);
    assert.deepEqual(again.response, rest);
    assert.deepEqual(admin.response, { message: 'admin logged in successfully' });
    assert.equal(refused.code, status.INVALID_ARGUMENT);
    assert.match(refused.details, /admin_secret/);
  } finally {
    grpc.close();
    await server.close();
  }
});

test('undecodable bytes as the first call are INVALID_ARGUMENT', async () => {
  const server = await startServer();
  try {
    const outcome = await callRaw(server.ports.grpc!, 'PublicService', 'Login', Buffer.from([0xff, 0xff, 0xff, 0xff, 0x0f]));
    assert.equal(outcome.code, status.INVALID_ARGUMENT, JSON.stringify(outcome));
  } finally {
    await server.close();
  }
});
