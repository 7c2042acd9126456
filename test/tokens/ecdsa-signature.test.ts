/**
 * derToJoseSignature (ecdsa-signature.ts): the R || S octet string of RFC 7518 section 3.4 from node's DER
 * signatures. node's own 'ieee-p1363' verification accepts every converted signature on P-256, P-384 and
 * P-521, including those whose R or S is shorter than the curve (a leading zero octet); hand-made DER
 * shows the padding and the dropped sign octet; malformed DER is refused.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { generateKeyPairSync, sign, verify } from 'node:crypto';
import { derToJoseSignature } from '../../server/modules/tokens/ecdsa-signature.ts';

/**
 * `signatures` per curve, and whether a short R or S is all but certain among them: on P-256 one integer in
 * 256 starts with a zero octet (1 - (255/256)^3000 for 1,500 signatures); on P-521 half do (the top octet
 * holds one bit). P-384 and P-521 signatures are slow in OpenSSL, so fewer are made there.
 */
const CURVES = [
  { curve: 'P-256', digest: 'sha256', size: 32, signatures: 1500, expectShort: true },
  { curve: 'P-384', digest: 'sha384', size: 48, signatures: 100, expectShort: false },
  { curve: 'P-521', digest: 'sha512', size: 66, signatures: 100, expectShort: true },
] as const;

describe('derToJoseSignature', () => {
  for (const { curve, digest, size, signatures, expectShort } of CURVES) {
    test(`${curve}: node verifies every converted signature as ieee-p1363, short R or S included`, () => {
      const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: curve });
      let short = 0;
      for (let i = 0; i < signatures; i++) {
        const data = Buffer.from(`signing input ${i}`);
        const der = sign(digest, data, privateKey);
        const jose = derToJoseSignature(der, size);
        assert.equal(jose.length, 2 * size);
        assert.ok(verify(digest, data, { key: publicKey, dsaEncoding: 'ieee-p1363' }, jose), `signature ${i} verifies`);
        if (jose[0] === 0 || jose[size] === 0) short++;
      }
      if (expectShort) assert.ok(short > 0, 'some R or S was shorter than the curve size');
    });
  }

  test('pads short integers on the left and drops the 0x00 before a high bit', () => {
    const r = [0x00, 0x80, ...new Array<number>(31).fill(0x11)]; // 33 octets: the sign octet, then 32
    const s = [0x05]; // one octet: padded with 31 zeros
    const der = Uint8Array.from([0x30, 2 + r.length + 2 + s.length, 0x02, r.length, ...r, 0x02, s.length, ...s]);
    const jose = derToJoseSignature(der, 32);
    assert.deepEqual([...jose.subarray(0, 32)], r.slice(1));
    assert.deepEqual([...jose.subarray(32)], [...new Array<number>(31).fill(0), 0x05]);
  });

  test('reads the long-form length of a P-521 SEQUENCE', () => {
    const r = [0x01, ...new Array<number>(65).fill(0xab)];
    const s = [0x00, 0xff, ...new Array<number>(65).fill(0xcd)];
    const content = [0x02, r.length, ...r, 0x02, s.length, ...s];
    const jose = derToJoseSignature(Uint8Array.from([0x30, 0x81, content.length, ...content]), 66);
    assert.deepEqual([...jose.subarray(0, 66)], r);
    assert.deepEqual([...jose.subarray(66)], s.slice(1));
  });

  test('refuses what is not an Ecdsa-Sig-Value of the curve size', () => {
    assert.throws(() => derToJoseSignature(Uint8Array.from([0x31, 0x06, 0x02, 0x01, 0x01, 0x02, 0x01, 0x01]), 32), /SEQUENCE/);
    assert.throws(() => derToJoseSignature(Uint8Array.from([0x30, 0x06, 0x04, 0x01, 0x01, 0x02, 0x01, 0x01]), 32), /INTEGER/);
    assert.throws(() => derToJoseSignature(Uint8Array.from([0x30, 0x06, 0x02, 0x03, 0x01, 0x01, 0x01]), 1), /longer than the curve size/);
    assert.throws(() => derToJoseSignature(Uint8Array.from([0x30, 0x06, 0x02, 0x05, 0x01]), 32), /longer than the curve size/);
    assert.throws(() => derToJoseSignature(Uint8Array.from([0x30]), 32), /truncated/);
  });
});
