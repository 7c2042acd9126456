/** Recovery codes (server/modules/mfa/recovery-codes.ts): random, stored as digests only, matched loosely. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { looksLikeRecoveryCode, matchRecoveryCode, newRecoveryCodes, RECOVERY_CODE_COUNT } from '../../server/modules/mfa/recovery-codes.ts';

test('ten distinct codes of two groups of five, and digests that do not contain them', () => {
  const { codes, digests } = newRecoveryCodes();
  assert.equal(codes.length, RECOVERY_CODE_COUNT);
  assert.equal(new Set(codes).size, RECOVERY_CODE_COUNT);
  for (const [i, code] of codes.entries()) {
    assert.match(code, /^[A-HJKMNP-Z2-9]{5}-[A-HJKMNP-Z2-9]{5}$/);
    assert.match(digests[i]!, /^[0-9a-f]{64}$/);
    assert.ok(!digests[i]!.includes(code.replace('-', '').toLowerCase()));
  }
  assert.notDeepEqual(newRecoveryCodes().codes, codes, 'two sets differ');
});

test('a code matches its own digest, typed in any case and spacing, and no other', () => {
  const { codes, digests } = newRecoveryCodes();
  assert.equal(matchRecoveryCode(codes[3]!, digests), 3);
  assert.equal(matchRecoveryCode(codes[3]!.toLowerCase().replace('-', ' '), digests), 3);
  const other = newRecoveryCodes().codes[0]!;
  assert.equal(matchRecoveryCode(other, digests), -1);
  assert.equal(matchRecoveryCode(codes[0]!, digests.slice(1)), -1, 'a used (removed) code no longer matches');
});

test('six-digit TOTP codes and junk are not taken for recovery codes', () => {
  for (const input of ['123456', '', 'ABCDE-FGHIJ-K', 'ABCDE-0OOOO', null as unknown as string, 42 as unknown as string]) {
    assert.equal(looksLikeRecoveryCode(input), false, String(input));
    assert.equal(matchRecoveryCode(input, newRecoveryCodes().digests), -1);
  }
});
