/**
 * The per-header-value memo of the HTTP policy (transports/http/header-memo.ts): a value is computed once
 * while remembered, an undefined answer is remembered too, and a flood of distinct values (anyone can send
 * any Origin) keeps at most MEMO_LIMIT of them, dropping the oldest.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MEMO_LIMIT, memoized } from '../../server/transports/http/header-memo.ts';

test('computes each value once while it is remembered, undefined answers included', () => {
  const calls: string[] = [];
  const lookup = memoized((value) => {
    calls.push(value);
    return value === 'none' ? undefined : value.length;
  });
  assert.equal(lookup('https://app.example'), 19);
  assert.equal(lookup('https://app.example'), 19);
  assert.equal(lookup('none'), undefined);
  assert.equal(lookup('none'), undefined);
  assert.deepEqual(calls, ['https://app.example', 'none']);
});

test('a flood of distinct values keeps the newest MEMO_LIMIT and computes the pushed-out ones again', () => {
  let computed = 0;
  const lookup = memoized((value) => {
    computed++;
    return value.toUpperCase();
  });
  for (let i = 0; i <= MEMO_LIMIT; i++) lookup(`https://attacker-${i}.example`);
  assert.equal(computed, MEMO_LIMIT + 1);
  lookup(`https://attacker-${MEMO_LIMIT}.example`);
  assert.equal(computed, MEMO_LIMIT + 1, 'the newest value is still remembered');
  lookup('https://attacker-0.example');
  assert.equal(computed, MEMO_LIMIT + 2, 'the oldest value was dropped and is computed again');
});
