/**
 * Timing (OWASP ASVS 2.5.x: the answer must not reveal the account, its time included): forgot_password
 * and magic_link_login for a known address do in the request exactly what they do for an unknown one
 * (validate, count, queue), and the mail leaves afterwards. Calls are interleaved and the outbox drained
 * between them. Each call's time is the server's own, from the request's arrival to its answer written
 * (the latency its metrics record), as a caller elsewhere sees it: this test shares the server's thread, so a
 * time taken by the test's client would also count the outbox pass that starts once the answer is out. The
 * lower quartiles are compared with a generous bound: noise on a loaded two-core machine (another test's
 * process, a collection) only ever adds time, so it moves medians more than lower quartiles, whereas sending
 * inside the request (an SMTP round trip plus the token writes) would add its cost to every call.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer } from '../support/app.ts';
import { startSmtpSink } from '../support/smtp-sink.ts';
import { makeUser, rawPost } from './support.ts';

function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) * q)]!;
}

test('known and unknown addresses take the same time (lower quartiles of interleaved calls)', async (t) => {
  const smtp = await startSmtpSink();
  const server = await startServer(['--enable-magic-link-login', '--enable-signup=false', ...smtp.flags()]);
  try {
    const rounds = 15;
    const known = Array.from({ length: 3 }, (_, i) => `timed${i}@example.com`);
    for (const email of known) await makeUser(server, { email });
    const times = { known: [] as number[], unknown: [] as number[] };
    // The sum of the server's recorded latencies for a route's 200 answers, in ms.
    const latencySum = async (path: string): Promise<number> => {
      const text = await (await fetch(`http://127.0.0.1:${server.ports.metrics}/metrics`)).text();
      const line = text.split('\n').find((l) => l.startsWith(`portcullis_http_request_duration_seconds_sum{route="${path}",method="POST",status="200"}`));
      return line ? Number(line.slice(line.lastIndexOf(' ') + 1)) * 1000 : 0;
    };
    const timed = async (path: string, email: string) => {
      const before = await latencySum(path);
      const res = await rawPost(server, path, { email });
      assert.equal(res.status, 200, res.body);
      await server.app.outbox.idle();
      return (await latencySum(path)) - before;
    };
    // Warm up both paths (JIT, statement caches) before measuring.
    await timed('/v1/forgot_password', 'warm@example.com');
    await timed('/v1/forgot_password', known[0]!);
    for (let round = 0; round < rounds; round++) {
      for (const path of ['/v1/forgot_password', '/v1/magic_link_login']) {
        const email = known[round % known.length]!;
        // Alternate which goes first, so a slow moment does not always hit the same side.
        if (round % 2 === 0) {
          times.known.push(await timed(path, email));
          times.unknown.push(await timed(path, `nobody${round}@example.com`));
        } else {
          times.unknown.push(await timed(path, `nobody${round}@example.com`));
          times.known.push(await timed(path, email));
        }
      }
    }
    const known25 = quantile(times.known, 0.25);
    const unknown25 = quantile(times.unknown, 0.25);
    const summary = `lower quartile known ${known25.toFixed(2)} ms, unknown ${unknown25.toFixed(2)} ms; medians ${quantile(times.known, 0.5).toFixed(2)} and ${quantile(times.unknown, 0.5).toFixed(2)} ms over ${times.known.length} pairs`;
    t.diagnostic(summary);
    const bound = Math.max(4, 0.5 * Math.min(known25, unknown25));
    assert.ok(Math.abs(known25 - unknown25) <= bound, `${summary} (bound ${bound.toFixed(2)} ms)`);
    assert.ok(smtp.messages.length >= rounds * 2, 'the known addresses did get their mails');
  } finally {
    await server.close();
    await smtp.close();
  }
});
