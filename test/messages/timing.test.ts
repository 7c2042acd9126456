/**
 * Timing (OWASP ASVS 2.5.x: the answer must not reveal the account, its time included): forgot_password
 * and magic_link_login for a known address do in the request exactly what they do for an unknown one
 * (validate, count, queue), and the mail leaves afterwards. Calls are interleaved and the outbox drained
 * between them, so the worker's sending never overlaps a measured call; medians are compared with a
 * generous bound that a loaded two-core machine keeps, and that sending inside the request (an SMTP
 * round trip plus the token writes) exceeds.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer } from '../support/app.ts';
import { startSmtpSink } from '../support/smtp-sink.ts';
import { makeUser, rawPost } from './support.ts';

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

test('known and unknown addresses take the same time (medians of interleaved calls)', async (t) => {
  const smtp = await startSmtpSink();
  const server = await startServer(['--enable-magic-link-login', '--enable-signup=false', ...smtp.flags()]);
  try {
    const rounds = 9;
    const known = Array.from({ length: 3 }, (_, i) => `timed${i}@example.com`);
    for (const email of known) await makeUser(server, { email });
    const times = { known: [] as number[], unknown: [] as number[] };
    const timed = async (path: string, email: string) => {
      const started = performance.now();
      const res = await rawPost(server, path, { email });
      const elapsed = performance.now() - started;
      assert.equal(res.status, 200, res.body);
      await server.app.outbox.idle();
      return elapsed;
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
    const known50 = median(times.known);
    const unknown50 = median(times.unknown);
    t.diagnostic(`median known ${known50.toFixed(2)} ms, unknown ${unknown50.toFixed(2)} ms over ${times.known.length} pairs`);
    const bound = Math.max(4, 0.5 * Math.min(known50, unknown50));
    assert.ok(
      Math.abs(known50 - unknown50) <= bound,
      `median known ${known50.toFixed(2)} ms, unknown ${unknown50.toFixed(2)} ms (bound ${bound.toFixed(2)} ms)`,
    );
    assert.ok(smtp.messages.length >= rounds * 2, 'the known addresses did get their mails');
  } finally {
    await server.close();
    await smtp.close();
  }
});
