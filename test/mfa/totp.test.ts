/**
 * TOTP against RFC 6238 appendix B and the acceptance rules of server/modules/mfa/totp.ts: one step of
 * skew each way, nothing older or newer, and no code of an already used step (OWASP ASVS 2.8.4).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkTotp, newTotpSecret, totpCode, totpUri, TOTP_PERIOD_SECONDS } from '../../server/modules/mfa/totp.ts';
import { totpQrDataUrl } from '../../server/modules/mfa/totp-qr.ts';

// RFC 6238 appendix B: the seeds are ASCII digits of 20, 32 and 64 bytes for SHA-1, SHA-256 and SHA-512.
const SEEDS = {
  sha1: Buffer.from('12345678901234567890'),
  sha256: Buffer.from('12345678901234567890123456789012'),
  sha512: Buffer.from('1234567890123456789012345678901234567890123456789012345678901234'),
} as const;

const VECTORS: [number, string, string, string][] = [
  [59, '94287082', '46119246', '90693936'],
  [1111111109, '07081804', '68084774', '25091201'],
  [1111111111, '14050471', '67062674', '99943326'],
  [1234567890, '89005924', '91819424', '93441116'],
  [2000000000, '69279037', '90698825', '38618901'],
  [20000000000, '65353130', '77737706', '47863826'],
];

test('RFC 6238 appendix B vectors (eight digits, SHA-1, SHA-256, SHA-512)', () => {
  for (const [seconds, sha1, sha256, sha512] of VECTORS) {
    const at = new Date(seconds * 1000);
    assert.equal(totpCode(SEEDS.sha1, at, { digits: 8, algorithm: 'sha1' }), sha1, `sha1 at ${seconds}`);
    assert.equal(totpCode(SEEDS.sha256, at, { digits: 8, algorithm: 'sha256' }), sha256, `sha256 at ${seconds}`);
    assert.equal(totpCode(SEEDS.sha512, at, { digits: 8, algorithm: 'sha512' }), sha512, `sha512 at ${seconds}`);
  }
});

test('a new secret is 160 bits of base32 and differs each time', () => {
  const a = newTotpSecret();
  const b = newTotpSecret();
  assert.match(a, /^[A-Z2-7]{32}$/);
  assert.notEqual(a, b);
});

test('a code is accepted in its step and one step either side, not two', () => {
  const secret = newTotpSecret();
  const now = new Date(1_800_000_000_000);
  const step = Math.floor(now.getTime() / 1000 / TOTP_PERIOD_SECONDS);
  const shifted = (steps: number) => new Date(now.getTime() + steps * TOTP_PERIOD_SECONDS * 1000);
  assert.equal(checkTotp(secret, totpCode(secret, now), now), step);
  assert.equal(checkTotp(secret, totpCode(secret, shifted(-1)), now), step - 1);
  assert.equal(checkTotp(secret, totpCode(secret, shifted(1)), now), step + 1);
  const twoBack = totpCode(secret, shifted(-2));
  const twoAhead = totpCode(secret, shifted(2));
  // A two-step code that happens to equal a code within the window would be accepted rightly; skip that case.
  const inWindow = new Set([-1, 0, 1].map((s) => totpCode(secret, shifted(s))));
  if (!inWindow.has(twoBack)) assert.equal(checkTotp(secret, twoBack, now), null);
  if (!inWindow.has(twoAhead)) assert.equal(checkTotp(secret, twoAhead, now), null);
});

test('a code of the last used step, or of any earlier step, is refused (replay)', () => {
  const secret = newTotpSecret();
  const now = new Date(1_800_000_000_000);
  const code = totpCode(secret, now);
  const step = checkTotp(secret, code, now);
  assert.ok(step !== null);
  assert.equal(checkTotp(secret, code, now, step), null, 'the same code again');
  const previous = totpCode(secret, new Date(now.getTime() - TOTP_PERIOD_SECONDS * 1000));
  if (previous !== code) assert.equal(checkTotp(secret, previous, now, step), null, 'an earlier step after a later one was used');
  const next = new Date(now.getTime() + TOTP_PERIOD_SECONDS * 1000);
  assert.equal(checkTotp(secret, totpCode(secret, next), next, step), step + 1, 'the next step still works');
});

test('malformed input is refused without throwing', () => {
  const secret = newTotpSecret();
  const now = new Date();
  for (const bad of ['', '12345', '1234567', 'abcdef', '12 34 5x', undefined as unknown as string, 123456 as unknown as string]) {
    assert.equal(checkTotp(secret, bad, now), null, String(bad));
  }
  assert.equal(checkTotp(secret, totpCode(secret, now).replace(/^(\d{3})/, '$1 '), now) !== null, true, 'spaces are ignored');
  assert.equal(checkTotp('not base32!', '123456', now), null);
});

test('the otpauth URI names issuer and account, and the QR image is a PNG data URL', async () => {
  const secret = newTotpSecret();
  const uri = totpUri(secret, 'Portcullis', 'ada@example.com');
  const parsed = new URL(uri);
  assert.equal(parsed.protocol, 'otpauth:');
  assert.equal(parsed.searchParams.get('secret'), secret);
  assert.equal(parsed.searchParams.get('issuer'), 'Portcullis');
  assert.match(decodeURIComponent(parsed.pathname), /ada@example\.com/);
  const image = await totpQrDataUrl(uri);
  assert.match(image, /^data:image\/png;base64,/);
  const png = Buffer.from(image.slice('data:image/png;base64,'.length), 'base64');
  assert.deepEqual([...png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
});
