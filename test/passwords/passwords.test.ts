/**
 * Passwords (OWASP ASVS 2.4.1; docs/configuration.md#defaults): argon2id at OWASP parameters, verification, the
 * dummy verify that makes an unknown user cost what a wrong password costs, and the length and
 * strong-password rules.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parseOptions } from '@node-rs/argon2';
import { hashPassword, verifyPassword, verifyAgainstDummy, passwordNeedsRehash, checkPasswordPolicy, ARGON2_PARAMS } from '../../server/modules/passwords/index.ts';
import { DUMMY_PASSWORD_HASH } from '../../server/modules/passwords/argon2.ts';
import { AppError } from '../../server/kernel/errors.ts';

const strong = { enableStrongPassword: true, passwordMinStrength: 0 };
const weak = { enableStrongPassword: false, passwordMinStrength: 0 };

function refusedWith(fn: () => Promise<void>, message: RegExp): Promise<void> {
  return assert.rejects(fn, (err: unknown) => err instanceof AppError && err.kind === 'invalid_argument' && message.test(err.message));
}

/** Medians of two operations timed alternately, so machine load falls on both alike. */
async function interleavedMediansMs(a: () => Promise<unknown>, b: () => Promise<unknown>, runs: number): Promise<[number, number]> {
  const times: [number[], number[]] = [[], []];
  for (let i = 0; i < runs; i++) {
    for (const [index, fn] of [a, b].entries()) {
      const start = performance.now();
      await fn();
      times[index]!.push(performance.now() - start);
    }
  }
  const median = (list: number[]) => list.sort((x, y) => x - y)[Math.floor(list.length / 2)]!;
  return [median(times[0]), median(times[1])];
}

describe('argon2id hashing', () => {
  test('hashes are argon2id PHC strings at m=19456 KiB, t=2, p=1 with a random salt', async () => {
    const a = await hashPassword('Secret#123');
    const b = await hashPassword('Secret#123');
    assert.match(a, /^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    assert.notEqual(a, b, 'each hash has its own salt');
    assert.ok(!a.includes('Secret#123'));
    const used = parseOptions(a);
    assert.deepEqual({ m: used.memoryCost, t: used.timeCost, p: used.parallelism }, { m: 19456, t: 2, p: 1 });
  });

  test('verify accepts the password and refuses any other, and a malformed stored hash', async () => {
    const stored = await hashPassword('Secret#123');
    assert.equal(await verifyPassword(stored, 'Secret#123'), true);
    assert.equal(await verifyPassword(stored, 'secret#123'), false);
    assert.equal(await verifyPassword(stored, ''), false);
    assert.equal(await verifyPassword('not-a-hash', 'Secret#123'), false);
  });

  test('hashing runs off the event loop (timers keep firing during a hash)', async () => {
    let ticks = 0;
    const timer = setInterval(() => ticks++, 1);
    await Promise.all([hashPassword('a'), hashPassword('b'), hashPassword('c')]);
    clearInterval(timer);
    assert.ok(ticks > 0, 'the event loop was blocked for the whole hash');
  });

  test('the dummy hash was made with the current parameters', () => {
    const used = parseOptions(DUMMY_PASSWORD_HASH);
    assert.deepEqual(
      { memoryCost: used.memoryCost, timeCost: used.timeCost, parallelism: used.parallelism },
      { ...ARGON2_PARAMS },
    );
    assert.equal(passwordNeedsRehash(DUMMY_PASSWORD_HASH), false);
  });

  test('a dummy verify costs about what a real wrong-password verify costs', async () => {
    const stored = await hashPassword('Secret#123');
    await verifyAgainstDummy('warm-up');
    const [real, dummy] = await interleavedMediansMs(() => verifyPassword(stored, 'Wrong#123'), () => verifyAgainstDummy('Wrong#123'), 9);
    assert.equal(await verifyAgainstDummy('Secret#123'), false);
    // Same order of magnitude: the same work is done, only scheduling noise differs.
    const ratio = dummy / real;
    assert.ok(ratio > 0.25 && ratio < 4, `dummy ${dummy.toFixed(1)} ms vs real ${real.toFixed(1)} ms`);
    assert.ok(dummy > 1, 'the dummy verify must do real work');
  });

  test('needs-rehash: weaker parameters or a foreign string ask for a new hash', () => {
    assert.equal(passwordNeedsRehash('$argon2id$v=19$m=4096,t=3,p=1$c29tZXNhbHRzb21lc2FsdA$YWJjZGVmZ2hpamtsbW5vcHFyc3R1dnd4eXoxMjM0NTY'), true);
    assert.equal(passwordNeedsRehash('plain'), true);
  });
});

describe('password policy', () => {
  // NIST SP 800-63B 5.1.1.2: verifiers should permit at least 64 characters, so passphrases fit.
  test('6 to 128 characters, counted as characters, whatever the strength setting', async () => {
    for (const config of [weak, strong]) {
      await refusedWith(() => checkPasswordPolicy(config, 'Ab1#x'), /between 6 and 128 characters/);
      await refusedWith(() => checkPasswordPolicy(config, `Ab1#${'x'.repeat(125)}`), /between 6 and 128 characters/);
    }
    await checkPasswordPolicy(strong, 'Ab1#xy');
    await checkPasswordPolicy(strong, `Ab1#${'x'.repeat(33)}`);
    await checkPasswordPolicy(strong, `Ab1#${'x'.repeat(60)}`);
    await checkPasswordPolicy(strong, `Ab1#${'x'.repeat(124)}`);
    await checkPasswordPolicy(weak, 'correct horse battery staple and a long walk on the beach at dawn!');
    // Six emoji are six characters (twelve UTF-16 units); 128 of them are still 128.
    await checkPasswordPolicy(weak, '😀'.repeat(6));
    await checkPasswordPolicy(weak, '😀'.repeat(128));
    await refusedWith(() => checkPasswordPolicy(weak, '😀'.repeat(129)), /between 6 and 128/);
  });

  test('strong passwords need upper, lower, digit and special, each with its own message', async () => {
    await refusedWith(() => checkPasswordPolicy(strong, 'abc123#!'), /upper-case letter/);
    await refusedWith(() => checkPasswordPolicy(strong, 'ABC123#!'), /lower-case letter/);
    await refusedWith(() => checkPasswordPolicy(strong, 'Abcdef#!'), /digit/);
    await refusedWith(() => checkPasswordPolicy(strong, 'Abcdef12'), /special character/);
    await refusedWith(() => checkPasswordPolicy(strong, 'Abc def12'), /special character/);
    await checkPasswordPolicy(strong, 'Abcdef1!');
    await checkPasswordPolicy(strong, 'Çava-123');
  });

  test('without --enable-strong-password any 6 to 128 characters not on the common list pass', async () => {
    await checkPasswordPolicy(weak, 'abcdef');
    await checkPasswordPolicy(weak, 'xk4vq9');
  });

  test('a confirmation that differs is refused, and the message never echoes the password', async () => {
    await refusedWith(() => checkPasswordPolicy(strong, 'Abcdef1!', 'Abcdef1?'), /do not match/);
    await checkPasswordPolicy(strong, 'Abcdef1!', 'Abcdef1!');
    await assert.rejects(checkPasswordPolicy(strong, 'abcdefgh1'), (err: Error) => !err.message.includes('abcdefgh1'));
  });
});
