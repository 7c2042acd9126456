/**
 * Ids that sort by creation time: 10 characters of milliseconds and 16 of randomness in Crockford's
 * base32 (the ULID layout), 26 characters in all. Within one process they strictly increase, even within
 * one millisecond (the random part is then incremented), so "newest model" and "tuples after the
 * continuation token" are plain string comparisons on every database. Only uppercase letters and digits
 * are used, so case-insensitive collations order them the same way.
 */
import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const TIME_LENGTH = 10;
const RANDOM_LENGTH = 16;
const RANDOM_LIMIT = 1n << 80n;

export const SORTABLE_ID_LENGTH = TIME_LENGTH + RANDOM_LENGTH;
export const SORTABLE_ID_PATTERN = /^[0-9A-HJKMNP-TV-Z]{26}$/;

function encode(value: bigint, length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) {
    out = ALPHABET[Number(value & 31n)] + out;
    value >>= 5n;
  }
  return out;
}

let lastTime = -1;
let lastRandom = 0n;

/** A new id greater than every id this process made before. */
export function sortableId(now: number = Date.now()): string {
  let time = Math.max(now, lastTime);
  let random: bigint;
  if (time === lastTime) {
    random = lastRandom + 1n;
    if (random >= RANDOM_LIMIT) {
      time += 1;
      random = BigInt(`0x${randomBytes(10).toString('hex')}`) >> 1n;
    }
  } else {
    // The top bit stays clear so increments within one millisecond cannot overflow in practice.
    random = BigInt(`0x${randomBytes(10).toString('hex')}`) >> 1n;
  }
  lastTime = time;
  lastRandom = random;
  return encode(BigInt(time), TIME_LENGTH) + encode(random, RANDOM_LENGTH);
}
