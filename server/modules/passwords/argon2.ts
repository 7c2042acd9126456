/**
 * Password hashing (OWASP ASVS 2.4.1): argon2id at the OWASP Password Storage Cheat Sheet's parameters
 * (19 MiB, t=2, p=1) through @node-rs/argon2, whose async calls run on the libuv thread pool, so the event
 * loop keeps serving other requests while a hash is computed (a hash takes
 * 5-8 ms of one core). At most one hash per core runs at once, one more per core waits in libuv's queue so that a
 * finishing thread starts it without the event loop (hashing-pool.ts); the others wait their turn in order.
 */
import { hash, verify, parseOptions, type Algorithm, type Options } from '@node-rs/argon2';
import { argon2Slots } from './hashing-pool.ts';
import { verifyImportedHash, type FirebaseKeyResolver } from './imported-verify.ts';

/** Algorithm is a const enum in the binding's typings (no runtime object); 2 is Argon2id. */
const ARGON2ID = 2 as Algorithm;

/** OWASP Password Storage Cheat Sheet, argon2id option 2: m=19456 KiB, t=2, p=1. */
export const ARGON2_PARAMS = { memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

const OPTIONS: Options = { ...ARGON2_PARAMS, algorithm: ARGON2ID };

/**
 * A hash of a random password nobody knows, made once with ARGON2_PARAMS (a test checks that they still
 * match). Verifying against it costs what a real verify costs, so a login for an unknown account takes
 * about as long as one with a wrong password (no user enumeration by timing).
 */
const DUMMY_HASH = '$argon2id$v=19$m=19456,t=2,p=1$4yvbaGPrdsWtHnotHmXO1A$CQ3VGzM6e3G/eKkwln2on/K7elpIF/+7u9LSiJGT9hI';

/** A PHC string (`$argon2id$v=19$m=19456,t=2,p=1$salt$hash`); the salt is random per call. */
export function hashPassword(password: string): Promise<string> {
  return argon2Slots().run(() => hash(password, OPTIONS));
}

/**
 * True when `password` matches `storedHash`. A hash imported from another system (bcrypt, scrypt, PBKDF2,
 * Firebase's scrypt: docs/importing-users.md#hash-formats) is verified by its own algorithm, a Firebase one
 * with the project parameters `firebaseKeys` finds; the caller replaces it with argon2id once it matched
 * (passwordNeedsRehash). A stored value of no known form (a corrupted column) answers false rather than
 * failing the request.
 */
export async function verifyPassword(storedHash: string, password: string, firebaseKeys?: FirebaseKeyResolver): Promise<boolean> {
  if (!storedHash.startsWith('$argon2')) return verifyImportedHash(storedHash, password, firebaseKeys);
  try {
    return await argon2Slots().run(() => verify(storedHash, password));
  } catch {
    return false;
  }
}

/** Spends one real verify on the dummy hash and always answers false (unknown user, no password set). */
export async function verifyAgainstDummy(password: string): Promise<false> {
  await verifyPassword(DUMMY_HASH, password);
  return false;
}

/** True when a stored hash was made with other parameters than today's, so a login may re-hash it. */
export function passwordNeedsRehash(storedHash: string): boolean {
  try {
    const used = parseOptions(storedHash);
    return (
      used.algorithm !== ARGON2ID ||
      used.memoryCost !== ARGON2_PARAMS.memoryCost ||
      used.timeCost !== ARGON2_PARAMS.timeCost ||
      used.parallelism !== ARGON2_PARAMS.parallelism
    );
  } catch {
    return true;
  }
}

/** Exposed for the test that keeps the dummy in step with ARGON2_PARAMS. */
export const DUMMY_PASSWORD_HASH = DUMMY_HASH;
