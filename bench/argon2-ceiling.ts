/**
 * The anchor of bench/login.ts: how many argon2id verifications per second this machine can do at all, with
 * the library and parameters the server uses (@node-rs/argon2 at server/modules/passwords ARGON2_PARAMS),
 * called directly (not through the server's one-hash-per-core queue) with every thread of the libuv pool
 * kept busy (two verifications queued per thread). bench/login.ts runs this file in a child process of the
 * same Node binary, with UV_THREADPOOL_SIZE set in its environment (libuv reads it once, when the pool
 * starts), and reads the one JSON line it prints:
 *   {"threads":2,"seconds":10.0,"verifies":640,"perSecond":64.0}
 * Usage: node bench/argon2-ceiling.ts [--seconds S]
 */
import { hash, verify, type Algorithm } from '@node-rs/argon2';
import { ARGON2_PARAMS } from '../server/modules/passwords/index.ts';
import { numberArg } from './report.ts';

const PASSWORD = 'B3nch!mark';
/** Algorithm is a const enum in the binding's typings (no runtime object); 2 is Argon2id. */
const ARGON2ID = 2 as Algorithm;

async function main(): Promise<void> {
  const seconds = numberArg(process.argv.slice(2), 'seconds', 10);
  const threads = Number(process.env.UV_THREADPOOL_SIZE ?? 4);
  const stored = await hash(PASSWORD, { ...ARGON2_PARAMS, algorithm: ARGON2ID });
  if (!(await verify(stored, PASSWORD))) throw new Error('argon2 verify of a fresh hash failed');
  const inFlight = threads * 2;
  const keepBusy = async (until: number, counted: { n: number }) => {
    while (performance.now() < until) {
      if (!(await verify(stored, PASSWORD))) throw new Error('argon2 verify failed');
      counted.n++;
    }
  };
  // One second of warm-up (threads started, 19 MiB blocks faulted in), not counted.
  const warm = performance.now() + 1000;
  await Promise.all(Array.from({ length: inFlight }, () => keepBusy(warm, { n: 0 })));
  const counted = { n: 0 };
  const began = performance.now();
  const until = began + seconds * 1000;
  await Promise.all(Array.from({ length: inFlight }, () => keepBusy(until, counted)));
  const elapsed = (performance.now() - began) / 1000;
  process.stdout.write(`${JSON.stringify({ threads, params: ARGON2_PARAMS, seconds: elapsed, verifies: counted.n, perSecond: counted.n / elapsed })}\n`);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
