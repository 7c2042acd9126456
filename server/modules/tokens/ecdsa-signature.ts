/**
 * The ECDSA signature of a JWS (RFC 7518 section 3.4) from the DER one OpenSSL makes.
 *
 * node's sign() answers ECDSA signatures as DER (the Ecdsa-Sig-Value SEQUENCE of RFC 3279 section 2.2.3),
 * while a JWS carries R || S, each an unsigned big-endian integer left-padded to the curve's size. node
 * converts for us with { key, dsaEncoding: 'ieee-p1363' }, but that path costs about as much again as the
 * signature itself (the options object makes it prepare the key again, and it looks up the curve's order
 * for each call): about 50 us per ES256 signature instead of 24 us for DER plus this conversion.
 */

/** Reads a DER length at `offset`: its value and where the content starts (X.690 section 8.1.3). */
function lengthAt(der: Uint8Array, offset: number): { length: number; start: number } {
  const first = der[offset];
  if (first === undefined) throw new Error('truncated DER ECDSA signature');
  if (first < 0x80) return { length: first, start: offset + 1 };
  const octets = first & 0x7f;
  // A signature of P-521 is at most 139 octets: one length octet after 0x81 is all it needs.
  if (octets !== 1 || der[offset + 1] === undefined) throw new Error('unexpected DER length in an ECDSA signature');
  return { length: der[offset + 1]!, start: offset + 2 };
}

/** Copies the INTEGER at `offset` right-aligned into `out[at, at + size)`; returns where the next element starts. */
function copyInteger(der: Uint8Array, offset: number, out: Buffer, at: number, size: number): number {
  if (der[offset] !== 0x02) throw new Error('expected a DER INTEGER in an ECDSA signature');
  const { length, start } = lengthAt(der, offset + 1);
  let from = start;
  let count = length;
  // A positive INTEGER whose top bit is set starts with 0x00 (X.690 section 8.3.2): not part of the value.
  while (count > size && der[from] === 0) {
    from++;
    count--;
  }
  if (count > size || start + length > der.length) throw new Error('ECDSA signature integer longer than the curve size');
  out.set(der.subarray(from, from + count), at + size - count);
  return start + length;
}

/** R || S of `size` octets each (32 for P-256, 48 for P-384, 66 for P-521) from a DER ECDSA signature. */
export function derToJoseSignature(der: Uint8Array, size: number): Buffer {
  if (der[0] !== 0x30) throw new Error('expected a DER SEQUENCE for an ECDSA signature');
  const { start } = lengthAt(der, 1);
  const out = Buffer.alloc(2 * size);
  const next = copyInteger(der, start, out, 0, size);
  copyInteger(der, next, out, size, size);
  return out;
}
