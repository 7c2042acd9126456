/**
 * The anchor of bench/login.ts: how many argon2id verifications per second this machine can do at all, with
 * the library and parameters the server uses (@node-rs/argon2 at server/modules/passwords ARGON2_PARAMS),
 * called directly (not through the server's one-hash-per-core queue) with every thread of the libuv pool
 * kept busy (two verifications queued per thread). UV_THREADPOOL_SIZE in the environment sets the pool
 * (libuv reads it once, when the pool starts).
 *
 * Forked by bench/login.ts (a child process of the same Node binary): it answers `{ ready: true }` once
 * warmed up, then each `{ seconds }` message with `{ verifies, seconds }` measured over that long, so the
 * bench can alternate slices of logins and of verifications and both see the same machine load.
 * Alone: `node bench/argon2-ceiling.ts [--seconds S]` prints one JSON line
 *   {"threads":2,"seconds":10.0,"verifies":640,"perSecond":64.0}
 */
import { hash, verify, type Algorithm } from '@node-rs/argon2';
import { ARGON2_PARAMS } from '../server/modules/passwords/index.ts';
import { numberArg } from './harness.ts';

const PASSWORD = 'B3nch!mark';
/** Algorithm is a const enum in the binding's typings (no runtime object); 2 is Argon2id. */
const ARGON2ID = 2 as Algorithm;
const THREADS = Number(process.env.UV_THREADPOOL_SIZE ?? 4);

export interface CeilingSlice {
  verifies: number;
  seconds: number;
}

/** Keeps two verifications per pool thread in flight for `seconds`; counts the ones that completed. */
async function measure(stored: string, seconds: number): Promise<CeilingSlice> {
  let verifies = 0;
  const began = performance.now();
  const until = began + seconds * 1000;
  const keepBusy = async () => {
    while (performance.now() < until) {
      if (!(await verify(stored, PASSWORD))) throw new Error('argon2 verify failed');
      verifies++;
    }
  };
  await Promise.all(Array.from({ length: THREADS * 2 }, keepBusy));
  return { verifies, seconds: (performance.now() - began) / 1000 };
}

async function main(): Promise<void> {
  const stored = await hash(PASSWORD, { ...ARGON2_PARAMS, algorithm: ARGON2ID });
  if (!(await verify(stored, PASSWORD))) throw new Error('argon2 verify of a fresh hash failed');
  // One second of warm-up (threads started, 19 MiB blocks faulted in), not counted.
  await measure(stored, 1);
  const send = process.send?.bind(process);
  if (send) {
    process.on('message', (message: { seconds?: number }) => {
      if (typeof message.seconds !== 'number') return;
      measure(stored, message.seconds).then((slice) => send(slice), (err: Error) => send({ error: err.message }));
    });
    send({ ready: true });
    return;
  }
  const slice = await measure(stored, numberArg(process.argv.slice(2), 'seconds', 10));
  process.stdout.write(`${JSON.stringify({ threads: THREADS, params: ARGON2_PARAMS, ...slice, perSecond: slice.verifies / slice.seconds })}\n`);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
