/**
 * Password hashes made by another system, checked at import and stored in a self-describing form that the
 * login dispatches on (docs/importing-users.md#hash-formats). Every format's cost is bounded here: a stored
 * hash whose verification takes seconds or allocates hundreds of MiB would let anyone who types its
 * account's address tie up the server (OWASP ASVS 5.0 V11.4 password storage, and the denial of service
 * of a cost chosen by the data rather than by the server). The bounds still admit what real exports use
 * (docs/importing-users.md#cost-bounds has the measured costs); the first successful login replaces the hash
 * with argon2id.
 *
 * Stored forms (all ASCII, at most 255 characters, the users.password_hash column):
 * - bcrypt: `$2a$` / `$2b$` / `$2y$` as given (the three are one algorithm for passwords under 255 bytes);
 * - argon2: `$argon2id$` / `$argon2i$` PHC strings as given (verified by the server's own argon2 binding);
 * - scrypt: `$scrypt$ln=<log2 N>,r=<r>,p=<p>$<salt>$<hash>`, salt and hash in standard base64 unpadded;
 * - PBKDF2: `$pbkdf2-sha256$i=<iterations>$<salt>$<hash>` (or sha512), salt and hash as above;
 * - Django: `pbkdf2_sha256$<iterations>$<salt>$<hash>` as given (the salt is text, used as its UTF-8 bytes);
 * - Firebase: `$firebase-scrypt$k=<key id>$<salt>$<hash>`, the project's parameters stored apart, sealed.
 */

export type ImportedHashScheme = 'bcrypt' | 'argon2' | 'scrypt' | 'pbkdf2' | 'django-pbkdf2' | 'firebase-scrypt';

/** The bounds of each format (docs/importing-users.md#cost-bounds). */
export const HASH_BOUNDS = {
  bcrypt: { minCost: 4, maxCost: 12 },
  /** KiB, passes and lanes; memory times passes at most 128 MiB-passes (e.g. 64 MiB x 2, 19 MiB x 6). */
  argon2: { minMemoryKib: 8, maxMemoryKib: 65536, maxTime: 10, maxParallelism: 4, maxMemoryTimesPasses: 131072 },
  /** 128 * N * r bytes of memory at most 64 MiB; N * r * p at most 2^20. */
  scrypt: { maxLogN: 20, maxR: 32, maxP: 4, maxMemoryBytes: 64 * 1024 * 1024, maxWork: 2 ** 20 },
  pbkdf2: { minIterations: 1000, maxIterations: { sha256: 1_500_000, sha512: 1_000_000 } },
  firebase: { maxRounds: 8, maxMemCost: 14 },
  saltBytes: { min: 1, max: 128 },
  hashBytes: { min: 16, max: 128 },
} as const;

/** A rejected hash, with the reason the import reports (never the hash itself). */
export class ImportedHashError extends Error {}

const fail = (reason: string): never => {
  throw new ImportedHashError(reason);
};

/** The stored column holds 255 characters; every accepted form fits with room to spare. */
const MAX_STORED_LENGTH = 255;

/**
 * Base64 as exported by the usual tools: standard, URL-safe, or passlib's "adapted" alphabet (`.` for `+`),
 * padded or not. Answers the bytes, or fails naming the field.
 */
export function decodeBase64Field(text: string, what: string): Buffer {
  const standard = text.replace(/\./g, '+');
  if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(standard) || standard.replace(/=+$/, '').length % 4 === 1) fail(`the ${what} is not base64`);
  return Buffer.from(standard, 'base64');
}

const b64 = (bytes: Buffer) => bytes.toString('base64').replace(/=+$/, '');

function checkLengths(salt: Buffer, hash: Buffer): void {
  const { saltBytes, hashBytes } = HASH_BOUNDS;
  if (salt.length < saltBytes.min || salt.length > saltBytes.max) fail(`the salt must be ${saltBytes.min} to ${saltBytes.max} bytes`);
  if (hash.length < hashBytes.min || hash.length > hashBytes.max) fail(`the hash must be ${hashBytes.min} to ${hashBytes.max} bytes`);
}

/** `a=1,b=2` to a map of whole numbers, refusing anything else. */
function numericParams(text: string, allowed: readonly string[]): Record<string, number> {
  const params: Record<string, number> = {};
  for (const part of text.split(',')) {
    const match = /^([a-z]+)=(\d{1,10})$/.exec(part);
    if (!match || !allowed.includes(match[1]!) || match[1]! in params) fail(`unexpected parameter "${part.slice(0, 20)}"`);
    params[match![1]!] = Number(match![2]);
  }
  return params;
}

function bcrypt(hash: string): string {
  const match = /^\$2[aby]\$(\d\d)\$[./A-Za-z0-9]{53}$/.exec(hash);
  if (!match) fail('not a bcrypt hash ($2a$, $2b$ or $2y$, a two-digit cost and 53 characters)');
  const cost = Number(match![1]);
  const { minCost, maxCost } = HASH_BOUNDS.bcrypt;
  if (cost < minCost || cost > maxCost) fail(`bcrypt cost ${cost} is outside ${minCost} to ${maxCost}`);
  return hash;
}

function argon2(hash: string): string {
  // The parameters in any order: the argon2 reference writes m, t, p; node-argon2 writes m, p, t.
  const match = /^\$(argon2id|argon2i)\$(?:v=(16|19)\$)?([a-z=0-9,]+)\$([A-Za-z0-9+/]+)\$([A-Za-z0-9+/]+)$/.exec(hash);
  if (!match) fail('not an argon2id or argon2i PHC string ($argon2id$v=19$m=..,t=..,p=..$salt$hash)');
  const { m, t, p } = numericParams(match![3]!, ['m', 't', 'p']);
  if (m === undefined || t === undefined || p === undefined) fail('argon2 needs m, t and p');
  const bounds = HASH_BOUNDS.argon2;
  if (m! < bounds.minMemoryKib || m! > bounds.maxMemoryKib) fail(`argon2 memory ${m} KiB is outside ${bounds.minMemoryKib} to ${bounds.maxMemoryKib}`);
  if (t! < 1 || t! > bounds.maxTime) fail(`argon2 passes ${t} are outside 1 to ${bounds.maxTime}`);
  if (p! < 1 || p! > bounds.maxParallelism) fail(`argon2 parallelism ${p} is outside 1 to ${bounds.maxParallelism}`);
  if (m! < 8 * p!) fail('argon2 memory must be at least 8 KiB per lane');
  if (m! * t! > bounds.maxMemoryTimesPasses) fail(`argon2 memory times passes ${m! * t!} is over ${bounds.maxMemoryTimesPasses}`);
  checkLengths(decodeBase64Field(match![4]!, 'salt'), decodeBase64Field(match![5]!, 'hash'));
  return hash;
}

/** The scrypt parameters' bounds, shared with Firebase's variant. */
export function checkScryptCost(logN: number, r: number, p: number): void {
  const bounds = HASH_BOUNDS.scrypt;
  if (logN < 1 || logN > bounds.maxLogN) fail(`scrypt ln ${logN} is outside 1 to ${bounds.maxLogN}`);
  if (r < 1 || r > bounds.maxR) fail(`scrypt r ${r} is outside 1 to ${bounds.maxR}`);
  if (p < 1 || p > bounds.maxP) fail(`scrypt p ${p} is outside 1 to ${bounds.maxP}`);
  const memory = 128 * 2 ** logN * r;
  if (memory > bounds.maxMemoryBytes) fail(`scrypt would use ${memory / 1048576} MiB, over ${bounds.maxMemoryBytes / 1048576} MiB`);
  if (2 ** logN * r * p > bounds.maxWork) fail(`scrypt N*r*p is over ${bounds.maxWork}`);
}

function scrypt(hash: string): string {
  const match = /^\$scrypt\$([a-z=0-9,]+)\$([^$]+)\$([^$]+)$/.exec(hash);
  if (!match) fail('not a scrypt hash ($scrypt$ln=..,r=..,p=..$salt$hash)');
  const { ln, r, p } = numericParams(match![1]!, ['ln', 'r', 'p']);
  if (ln === undefined || r === undefined || p === undefined) fail('scrypt needs ln, r and p');
  checkScryptCost(ln!, r!, p!);
  const salt = decodeBase64Field(match![2]!, 'salt');
  const digest = decodeBase64Field(match![3]!, 'hash');
  checkLengths(salt, digest);
  return `$scrypt$ln=${ln},r=${r},p=${p}$${b64(salt)}$${b64(digest)}`;
}

function checkIterations(digest: 'sha256' | 'sha512', iterations: number): void {
  const { minIterations, maxIterations } = HASH_BOUNDS.pbkdf2;
  if (iterations < minIterations || iterations > maxIterations[digest]) {
    fail(`pbkdf2-${digest} iterations ${iterations} are outside ${minIterations} to ${maxIterations[digest]}`);
  }
}

/** PHC (`i=N`, optionally `,l=keylen`) and passlib's bare iteration count alike. */
function pbkdf2(hash: string): string {
  const match = /^\$pbkdf2-(sha256|sha512)\$([a-z=0-9,]+)\$([^$]+)\$([^$]+)$/.exec(hash);
  if (!match) fail('not a PBKDF2 hash ($pbkdf2-sha256$i=..$salt$hash)');
  const digest = match![1] as 'sha256' | 'sha512';
  const iterations = /^\d{1,10}$/.test(match![2]!) ? Number(match![2]) : numericParams(match![2]!, ['i', 'l']).i;
  if (iterations === undefined) fail('pbkdf2 needs its iteration count i');
  checkIterations(digest, iterations!);
  const salt = decodeBase64Field(match![3]!, 'salt');
  const derived = decodeBase64Field(match![4]!, 'hash');
  checkLengths(salt, derived);
  return `$pbkdf2-${digest}$i=${iterations}$${b64(salt)}$${b64(derived)}`;
}

function djangoPbkdf2(hash: string): string {
  const match = /^pbkdf2_(sha256)\$(\d{1,10})\$([A-Za-z0-9]{1,64})\$([A-Za-z0-9+/]+={0,2})$/.exec(hash);
  if (!match) fail('not a Django PBKDF2 hash (pbkdf2_sha256$iterations$salt$hash)');
  checkIterations('sha256', Number(match![2]));
  checkLengths(Buffer.from(match![3]!, 'utf8'), decodeBase64Field(match![4]!, 'hash'));
  return hash;
}

/** The Firebase hash of one user: its salt and hash (base64, as the Firebase CLI exports them). */
export function firebaseStoredHash(keyId: string, saltText: string, hashText: string): string {
  const salt = decodeBase64Field(saltText, 'salt');
  const digest = decodeBase64Field(hashText, 'hash');
  checkLengths(salt, digest);
  return `$firebase-scrypt$k=${keyId}$${b64(salt)}$${b64(digest)}`;
}

/** Which format a stored hash is in, by its prefix; undefined for anything else. */
export function schemeOf(stored: string): ImportedHashScheme | undefined {
  if (stored.startsWith('$argon2')) return 'argon2';
  if (/^\$2[aby]\$/.test(stored)) return 'bcrypt';
  if (stored.startsWith('$scrypt$')) return 'scrypt';
  if (stored.startsWith('$pbkdf2-')) return 'pbkdf2';
  if (stored.startsWith('pbkdf2_')) return 'django-pbkdf2';
  if (stored.startsWith('$firebase-scrypt$')) return 'firebase-scrypt';
  return undefined;
}

const PARSERS: Record<Exclude<ImportedHashScheme, 'firebase-scrypt'>, (hash: string) => string> = {
  bcrypt,
  argon2,
  scrypt,
  pbkdf2,
  'django-pbkdf2': djangoPbkdf2,
};

/**
 * The stored form of a hash given as one self-describing string, or an ImportedHashError saying what is
 * wrong with it. Firebase hashes come as salt and hash apart (firebaseStoredHash).
 */
export function storedFormOf(hash: string): string {
  if (hash.length > MAX_STORED_LENGTH) fail(`the hash is longer than ${MAX_STORED_LENGTH} characters`);
  const scheme = schemeOf(hash);
  if (!scheme) fail('unknown hash format (bcrypt, argon2id, argon2i, scrypt, pbkdf2-sha256, pbkdf2-sha512, Django pbkdf2_sha256)');
  if (scheme === 'firebase-scrypt') fail('a Firebase hash is given as {"algorithm":"firebase-scrypt","hash":..,"salt":..}');
  const stored = PARSERS[scheme as Exclude<ImportedHashScheme, 'firebase-scrypt'>](hash);
  if (stored.length > MAX_STORED_LENGTH) fail(`the hash is longer than ${MAX_STORED_LENGTH} characters`);
  return stored;
}
