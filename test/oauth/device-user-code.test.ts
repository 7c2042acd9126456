/**
 * The device flow's user code (RFC 8628 section 6.1): 8 consonants of BCDFGHJKLMNPQRSTVWXZ shown XXXX-XXXX, and
 * what a person types compared without case, spaces or dashes; anything with a vowel, a digit or the wrong
 * length is no code of ours (and is refused before any look-up).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { USER_CODE_ALPHABET, newUserCode, normalizedUserCode, userCodeDigest } from '../../server/modules/oauth/device/user-code.ts';

test('new user codes are XXXX-XXXX of the twenty consonants, and every letter of them turns up', () => {
  const seen = new Set<string>();
  for (let i = 0; i < 500; i++) {
    const code = newUserCode();
    assert.match(code, /^[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}$/);
    for (const char of code.replace('-', '')) seen.add(char);
  }
  assert.equal(seen.size, USER_CODE_ALPHABET.length);
});

test('a typed code is compared without case, spaces or dashes', () => {
  for (const typed of ['BCDF-GHJK', 'bcdf-ghjk', ' bcdf ghjk ', 'BCDFGHJK', 'bc-df-gh-jk']) {
    assert.equal(normalizedUserCode(typed), 'BCDFGHJK', typed);
  }
  assert.equal(userCodeDigest(normalizedUserCode('bcdf ghjk')!), userCodeDigest(normalizedUserCode('BCDF-GHJK')!));
});

test('vowels, digits and other lengths are no code', () => {
  for (const typed of ['ABCD-EFGH', 'BCDF-GHJ1', 'BCDF-GHJ', 'BCDF-GHJKL', '', 'BCDF_GHJK', 'ВCDF-GHJK']) {
    assert.equal(normalizedUserCode(typed), undefined, typed);
  }
});
