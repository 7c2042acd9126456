import { createHmac, hash, randomBytes, timingSafeEqual } from 'node:crypto';

/** Compares two secrets in time that does not depend on where they differ (guide: "constant-time comparisons"). */
export function constantTimeEqual(a: string, b: string): boolean {
  // Hashing first gives equal-length buffers, so the length of the secret does not leak either.
  const ha = hash('sha256', a, 'buffer');
  const hb = hash('sha256', b, 'buffer');
  return timingSafeEqual(ha, hb) && a.length === b.length;
}

/** One-shot hashing (crypto.hash): no Hash stream object per call, which validation does on every request. */
export function sha256Hex(value: string): string {
  return hash('sha256', value, 'hex');
}

export function hmacSha256Hex(key: string, value: string): string {
  return createHmac('sha256', key).update(value, 'utf8').digest('hex');
}

/** URL-safe random token with `bytes` bytes of entropy. */
export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}
