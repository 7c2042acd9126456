/**
 * The message outbox: nothing is sent inside a request; a failing SMTP server is retried with backoff
 * until it answers; two instances on one database never send one message twice; a claim left by a
 * crashed sender is taken over once its lease runs out; and one destination gets at most 10 messages of
 * a flow an hour (30 reset requests within a minute send 10 mails), with the same answers for a known
 * and an unknown address.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { startServer } from '../support/app.ts';
import { startSmtpSink, SINK_SENDER } from '../support/smtp-sink.ts';
import { createTestDatabase } from '../support/databases.ts';
import { MessageJob } from '../../server/modules/messages/index.ts';
import { makeUser, rawPost } from './support.ts';

/** A real SMTP server that refuses the first `failures` messages with 451 (try again later). */
async function flakySmtp(failures: number) {
  let refused = 0;
  const accepted: string[] = [];
  const server = new SMTPServer({
    logger: false,
    disabledCommands: ['STARTTLS', 'AUTH'],
    authOptional: true,
    onData(stream, session, callback) {
      stream.resume();
      stream.on('end', () => {
        if (refused < failures) {
          refused += 1;
          const err = Object.assign(new Error('try again later'), { responseCode: 451 });
          return callback(err);
        }
        accepted.push(...session.envelope.rcptTo.map((r) => r.address));
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    accepted,
    refusals: () => refused,
    flags: ['--smtp-host', '127.0.0.1', '--smtp-port', String(port), '--smtp-sender-email', SINK_SENDER],
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('message outbox', () => {
  test('a refusing SMTP server: the call answers 200 at once, the mail arrives once after two retries', async () => {
    const smtp = await flakySmtp(2);
    const server = await startServer(smtp.flags, { outbox: { retryBaseMs: 50 } });
    try {
      await makeUser(server, { email: 'retry@example.com' });
      const res = await rawPost(server, '/v1/forgot_password', { email: 'retry@example.com' });
      assert.equal(res.status, 200, res.body);
      await server.app.outbox.idle();
      assert.equal(smtp.refusals(), 2);
      assert.deepEqual(smtp.accepted, ['retry@example.com']);
      assert.equal(await server.app.deps.storage.fork().count(MessageJob, {}), 0, 'a delivered job is removed');
    } finally {
      await server.close();
      await smtp.close();
    }
  });

  test('30 reset requests for one address within a minute send 10 mails; known and unknown get the same answers', async () => {
    const smtp = await startSmtpSink();
    const server = await startServer(smtp.flags());
    try {
      await makeUser(server, { email: 'flood@example.com' });
      const statuses = { known: [] as number[], unknown: [] as number[] };
      for (let i = 0; i < 30; i++) {
        const known = await rawPost(server, '/v1/forgot_password', { email: 'flood@example.com' });
        const unknown = await rawPost(server, '/v1/forgot_password', { email: 'ghost@example.com' });
        statuses.known.push(known.status);
        statuses.unknown.push(unknown.status);
        if (i === 29) {
          assert.equal(known.body, unknown.body);
          assert.equal(JSON.parse(known.body).code, 'resource_exhausted');
          assert.equal(known.headers['retry-after'] !== undefined, true);
        }
      }
      assert.deepEqual(statuses.known, [...Array(10).fill(200), ...Array(20).fill(429)]);
      assert.deepEqual(statuses.known, statuses.unknown);
      await server.app.outbox.idle();
      assert.equal(smtp.messages.filter((m) => m.envelope.to.includes('flood@example.com')).length, 10);
    } finally {
      await server.close();
      await smtp.close();
    }
  });

  test('two instances on one PostgreSQL database send each message exactly once', async () => {
    const db = await createTestDatabase('postgres');
    const smtp = await startSmtpSink();
    const one = await startServer([...db.flags, ...smtp.flags()]);
    const two = await startServer([...db.flags, ...smtp.flags()]);
    try {
      const em = one.app.deps.storage.fork();
      const now = new Date();
      const addresses = Array.from({ length: 24 }, (_, i) => `twice${i}@example.com`);
      for (const address of addresses) await makeUser(one, { email: address });
      for (const address of addresses) {
        em.create(MessageJob, {
          id: randomUUID(), channel: 'email', flow: 'forgot_password', destination: address, userId: null, redirectUri: null,
          options: null, status: 'pending', attempts: 0, nextAttemptAt: now, leaseUntil: null, lastError: null, createdAt: now, updatedAt: now,
        });
      }
      await em.flush();
      one.app.outbox.wake();
      two.app.outbox.wake();
      await Promise.all([one.app.outbox.idle(), two.app.outbox.idle()]);
      const received = smtp.messages.map((m) => m.envelope.to[0]!).sort();
      assert.deepEqual(received, [...addresses].sort(), 'every message once, none twice');
    } finally {
      await one.close();
      await two.close();
      await smtp.close();
      await db.cleanup();
    }
  });

  test('a claim whose sender died is taken over after its lease; one past its last attempt is marked failed', async () => {
    const smtp = await startSmtpSink();
    const server = await startServer(smtp.flags(), { outbox: { maxAttempts: 3 } });
    try {
      await makeUser(server, { email: 'orphan@example.com' });
      await makeUser(server, { email: 'spent@example.com' });
      const em = server.app.deps.storage.fork();
      const past = new Date(Date.now() - 60_000);
      const row = (destination: string, attempts: number) => em.create(MessageJob, {
        id: randomUUID(), channel: 'email', flow: 'forgot_password', destination, userId: null, redirectUri: null, options: null,
        status: 'sending', attempts, nextAttemptAt: past, leaseUntil: past, lastError: null, createdAt: past, updatedAt: past,
      });
      row('orphan@example.com', 1);
      row('spent@example.com', 3);
      await em.flush();
      server.app.outbox.wake();
      await server.app.outbox.idle();
      assert.equal(smtp.messages.filter((m) => m.envelope.to.includes('orphan@example.com')).length, 1);
      assert.equal(smtp.messages.filter((m) => m.envelope.to.includes('spent@example.com')).length, 0);
      const left = await server.app.deps.storage.fork().find(MessageJob, {});
      assert.deepEqual(left.map((j) => [j.destination, j.status]), [['spent@example.com', 'failed']]);
    } finally {
      await server.close();
      await smtp.close();
    }
  });
});
