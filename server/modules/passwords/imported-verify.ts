/**
 * Verifying a password against a hash imported from another system (imported-hash.ts gives the stored
 * forms). The expensive derivations run off the event loop: scrypt and PBKDF2 through node:crypto's async
 * calls on libuv's pool, queued in the same slots as argon2 (hashing-pool.ts) so that an imported hash
 * cannot crowd the pool more than a native one; bcrypt through bcryptjs's async compare, which yields
 * to the event loop between rounds. Every comparison of derived bytes is constant-time (timingSafeEqual).
 * A stored value that does not parse answers false, as for argon2 (argon2.ts verifyPassword).
 */
import { createCipheriv, pbkdf2, scrypt, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';
import bcryptjs from 'bcryptjs';
import { argon2Slots } from './hashing-pool.ts';
import { checkScryptCost, decodeBase64Field, HASH_BOUNDS } from './imported-hash.ts';

const scryptAsync = promisify(scrypt) as (password: string | Buffer, salt: Buffer, keylen: number, options: { N: number; r: number; p: number; maxmem: number }) => Promise<Buffer>;
const pbkdf2Async = promisify(pbkdf2);

/**
 * A Firebase project's password hash parameters (Firebase's modified scrypt, github.com/firebase/scrypt):
 * the signer key and salt separator as bytes, rounds (scrypt r) and mem_cost (scrypt N = 2^mem_cost).
 */
export interface FirebaseScryptParams {
  readonly signerKey: Buffer;
  readonly saltSeparator: Buffer;
  readonly rounds: number;
  readonly memCost: number;
}

/** Finds a Firebase project's parameters by the key id its users' stored hashes carry. */
export type FirebaseKeyResolver = (keyId: string) => Promise<FirebaseScryptParams | null>;

/** Firebase's bounds, checked on the parameters an import brings (and again when verifying). */
export function checkFirebaseParams(params: FirebaseScryptParams): void {
  const { maxRounds, maxMemCost } = HASH_BOUNDS.firebase;
  if (!Number.isInteger(params.rounds) || params.rounds < 1 || params.rounds > maxRounds) throw new RangeError(`rounds must be 1 to ${maxRounds}`);
  if (!Number.isInteger(params.memCost) || params.memCost < 1 || params.memCost > maxMemCost) throw new RangeError(`mem_cost must be 1 to ${maxMemCost}`);
  if (params.signerKey.length < 16 || params.signerKey.length > 128) throw new RangeError('the signer key must be 16 to 128 bytes');
  if (params.saltSeparator.length > 16) throw new RangeError('the salt separator must be at most 16 bytes');
  checkScryptCost(params.memCost, params.rounds, 1);
}

const same = (a: Buffer, b: Buffer) => a.length === b.length && timingSafeEqual(a, b);

/** Whole byte fields of `$scheme$params$salt$hash`. */
function fields(stored: string): [string, string, Buffer, Buffer] {
  const [, scheme, params, salt, hash] = stored.split('$');
  return [scheme!, params!, decodeBase64Field(salt!, 'salt'), decodeBase64Field(hash!, 'hash')];
}

function paramsOf(text: string): Record<string, string> {
  return Object.fromEntries(text.split(',').map((part) => part.split('=') as [string, string]));
}

const maxmemFor = (logN: number, r: number) => 128 * 2 ** logN * r + 1024 * 1024;

async function verifyScrypt(stored: string, password: string): Promise<boolean> {
  const [, params, salt, expected] = fields(stored);
  const { ln, r, p } = paramsOf(params);
  const [logN, blockSize, lanes] = [Number(ln), Number(r), Number(p)];
  checkScryptCost(logN, blockSize, lanes);
  const derived = await scryptAsync(password, salt, expected.length, { N: 2 ** logN, r: blockSize, p: lanes, maxmem: maxmemFor(logN, blockSize) });
  return same(derived, expected);
}

async function verifyPbkdf2(stored: string, password: string): Promise<boolean> {
  const [scheme, params, salt, expected] = fields(stored);
  const digest = scheme === 'pbkdf2-sha512' ? 'sha512' : 'sha256';
  const iterations = Number(paramsOf(params).i);
  if (!(iterations >= 1 && iterations <= HASH_BOUNDS.pbkdf2.maxIterations[digest])) return false;
  return same(await pbkdf2Async(password, salt, iterations, expected.length, digest), expected);
}

/** Django's `pbkdf2_sha256$iterations$salt$hash`: the salt is used as text (django.contrib.auth.hashers). */
async function verifyDjango(stored: string, password: string): Promise<boolean> {
  const [, iterationsText, salt, hash] = stored.split('$');
  const iterations = Number(iterationsText);
  if (!(iterations >= 1 && iterations <= HASH_BOUNDS.pbkdf2.maxIterations.sha256)) return false;
  const expected = decodeBase64Field(hash!, 'hash');
  return same(await pbkdf2Async(password, Buffer.from(salt!, 'utf8'), iterations, expected.length, 'sha256'), expected);
}

/**
 * Firebase's modified scrypt (github.com/firebase/scrypt): the key is scrypt(password, salt || separator,
 * N = 2^mem_cost, r = rounds, p = 1), its first 32 bytes an AES-256-CTR key with a zero IV that encrypts the
 * project's signer key; the result is the stored hash.
 */
export async function firebaseScryptHash(password: string, salt: Buffer, params: FirebaseScryptParams): Promise<Buffer> {
  checkFirebaseParams(params);
  const key = await scryptAsync(password, Buffer.concat([salt, params.saltSeparator]), 32, {
    N: 2 ** params.memCost,
    r: params.rounds,
    p: 1,
    maxmem: maxmemFor(params.memCost, params.rounds),
  });
  const cipher = createCipheriv('aes-256-ctr', key, Buffer.alloc(16, 0));
  return Buffer.concat([cipher.update(params.signerKey), cipher.final()]);
}

/** The project's parameters are read before a hashing slot is taken, so no slot waits on the database. */
async function verifyFirebase(stored: string, password: string, resolve: FirebaseKeyResolver | undefined): Promise<boolean> {
  const [, params, salt, expected] = fields(stored);
  const keyId = paramsOf(params).k;
  const project = keyId && resolve ? await resolve(keyId) : null;
  if (!project) return false;
  return same(await argon2Slots().run(() => firebaseScryptHash(password, salt, project)), expected);
}

/**
 * True when `password` matches an imported `stored` hash of a known format. bcrypt's own comparison is
 * bcryptjs's, which compares the whole encoded hash without an early exit.
 */
export async function verifyImportedHash(stored: string, password: string, resolve?: FirebaseKeyResolver): Promise<boolean> {
  try {
    if (/^\$2[aby]\$/.test(stored)) return await bcryptjs.compare(password, stored);
    if (stored.startsWith('$scrypt$')) return await argon2Slots().run(() => verifyScrypt(stored, password));
    if (stored.startsWith('$pbkdf2-')) return await argon2Slots().run(() => verifyPbkdf2(stored, password));
    if (stored.startsWith('pbkdf2_sha256$')) return await argon2Slots().run(() => verifyDjango(stored, password));
    if (stored.startsWith('$firebase-scrypt$')) return await verifyFirebase(stored, password, resolve);
    return false;
  } catch {
    return false;
  }
}
