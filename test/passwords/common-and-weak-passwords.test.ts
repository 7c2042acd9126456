/**
 * Commonly used and easily guessed passwords (NIST SP 800-63B §5.1.1.2; docs/passwords.md): a password on the
 * bundled list is refused, whatever its case, at signup, at a reset (before the single-use link is spent), at
 * a change in the profile, at the replacement of an initial password and in an administrator's create_user,
 * over REST, GraphQL and gRPC, with invalid_argument and a message that names neither the password nor the
 * list's entry. A strong password passes. --password-min-strength refuses a weak password that is not on
 * the list only when it is on, and counts the person's own name and address against the password; meta
 * reports the setting.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from '../support/app.ts';
import { threeProtocols, PROTOCOLS, CODES, type Protocol } from '../support/three-protocols.ts';
import { signedInUser } from '../support/signed-in-user.ts';
import { parseConfig } from '../../server/config/parse.ts';
import { baseFlags } from '../support/app.ts';
import { COMMON_PASSWORD_MESSAGE, WEAK_PASSWORD_MESSAGE, checkPasswordPolicy } from '../../server/modules/passwords/policy.ts';
import { isCommonPassword, comparisonForm } from '../../server/modules/passwords/common-passwords.ts';
import { passwordStrength, ESTIMATOR_MAX_LENGTH } from '../../server/modules/passwords/strength.ts';
import { AppError } from '../../server/kernel/errors.ts';

/** On the list ("p@ssw0rd") and yet upper, lower, digit and special: --enable-strong-password lets it by. */
const LISTED = 'P@ssw0rd';
/** Not on the list, all four classes, and still zxcvbn score 2: "summer" and a year. */
const WEAK_UNLISTED = 'Summer2024!';
const STRONG = 'Blue-Violin-Harbor-62';
const STRONG_2 = 'Quiet-Lantern-Orchard-17';

function assertRefusedAsCommon(protocol: Protocol, reply: { ok: boolean; code?: string; message?: string }, what: string): void {
  assert.equal(reply.ok, false, `${protocol} ${what} accepted a listed password`);
  assert.equal(reply.code, CODES.invalid[protocol], `${protocol} ${what}: ${JSON.stringify(reply)}`);
  assert.equal(reply.message, COMMON_PASSWORD_MESSAGE);
}

describe('the list of commonly used passwords', () => {
  test('case and Unicode compatibility forms do not get a listed password through; the list is loaded once', async () => {
    for (const password of ['password1', 'PASSWORD1', 'Password1', 'qwerty123', 'P@ssw0rd', 'ｐａｓｓｗｏｒｄ１']) {
      assert.equal(await isCommonPassword(password), true, password);
    }
    for (const password of [STRONG, WEAK_UNLISTED, 'password1 is not a passphrase']) {
      assert.equal(await isCommonPassword(password), false, password);
    }
    assert.equal(comparisonForm('ＰＡＳＳ'), 'pass');
    const weak = { enableStrongPassword: false, passwordMinStrength: 0 };
    await assert.rejects(checkPasswordPolicy(weak, '123456'), (err: unknown) => err instanceof AppError && err.kind === 'invalid_argument' && err.message === COMMON_PASSWORD_MESSAGE);
    // The cheap rules answer first: a too-short password is refused for its length, not its commonness.
    await assert.rejects(checkPasswordPolicy(weak, '1234'), /between 6 and 128/);
  });

  test('the strength estimate sees a bounded prefix and counts the person\'s own words', async () => {
    assert.equal(await passwordStrength('Ada.Lovelace1!'), 4);
    assert.ok((await passwordStrength('Ada.Lovelace1!', ['ada.lovelace@example.com', 'Ada', 'Lovelace'])) < 3);
    assert.ok((await passwordStrength('Ada.Lovelace1!', ['ada.l.1815@example.com', 'Ada', 'Lovelace', 'ada.lovelace'])) < 3);
    // A long password whose first characters are a repeat is judged on those characters (and quickly).
    const start = performance.now();
    const score = await passwordStrength(`${'a'.repeat(ESTIMATOR_MAX_LENGTH)}${'Kj8#mQ2$vL9@pR4!'.repeat(6)}`);
    assert.equal(score, 0);
    assert.ok(performance.now() - start < 1000, 'bounded');
  });

  test('--password-min-strength takes 0 to 4 and refuses anything else at start', () => {
    const flags = baseFlags('/tmp');
    assert.equal(parseConfig(flags).passwordMinStrength, 0);
    assert.equal(parseConfig([...flags, '--password-min-strength', '4']).passwordMinStrength, 4);
    assert.throws(() => parseConfig([...flags, '--password-min-strength', '5']), /--password-min-strength must be a whole number from 0 \(off\) to 4/);
    assert.throws(() => parseConfig([...flags, '--password-min-strength', '-1']), /--password-min-strength/);
  });
});

describe('a listed password is refused wherever a password is set, over each protocol', () => {
  let server: TestServer;
  let ops: ReturnType<typeof threeProtocols>;
  before(async () => {
    server = await startServer();
    ops = threeProtocols(() => server);
  });
  after(async () => {
    ops?.close();
    await server?.close();
  });

  test('signup: refused with invalid_argument; a strong password signs up; meta says no minimum strength', async () => {
    for (const protocol of PROTOCOLS) {
      const email = `common-signup-${protocol}@example.com`;
      for (const password of [LISTED, LISTED.toUpperCase().replace('P@SSW0RD', 'P@SSw0rd')]) {
        const refused = await ops.send(protocol, 'signup', { email, password, confirm_password: password });
        assertRefusedAsCommon(protocol, refused, 'signup');
        assert.ok(!JSON.stringify(refused.body).includes(password), 'the answer does not echo the password');
      }
      const ok = await ops.send(protocol, 'signup', { email, password: STRONG, confirm_password: STRONG });
      assert.ok(ok.ok, `${protocol}: ${JSON.stringify(ok.body)}`);
      // Without the flag, a weak password that is not on the list passes.
      const weak = await ops.send(protocol, 'signup', { email: `weak-ok-${protocol}@example.com`, password: WEAK_UNLISTED, confirm_password: WEAK_UNLISTED });
      assert.ok(weak.ok, `${protocol}: ${JSON.stringify(weak.body)}`);
      assert.equal((await ops.over(protocol, 'meta', {}, 'anonymous')).password_min_strength ?? 0, 0);
    }
  });

  test('reset_password with a set-password link: refused before the link is spent, which then still works', async () => {
    for (const protocol of PROTOCOLS) {
      const email = `common-reset-${protocol}@example.com`;
      const created = await ops.over('rest', 'create_user', { email, set_password_link: true }, 'admin');
      const token = new URL(created.set_password_link).searchParams.get('token')!;
      assertRefusedAsCommon(protocol, await ops.send(protocol, 'reset_password', { token, password: LISTED, confirm_password: LISTED }), 'reset_password');
      const reset = await ops.send(protocol, 'reset_password', { token, password: STRONG, confirm_password: STRONG });
      assert.ok(reset.ok, `${protocol}: the link survived the refusal: ${JSON.stringify(reset.body)}`);
      assert.ok((await ops.send('rest', 'login', { email, password: STRONG })).ok);
    }
  });

  test('update_profile: a change to a listed password is refused and the old password keeps working', async () => {
    for (const protocol of PROTOCOLS) {
      const user = await signedInUser(server, { email: `common-change-${protocol}@example.com` });
      const change = (next: string) => ({ old_password: user.password, new_password: next, confirm_new_password: next });
      assertRefusedAsCommon(protocol, await ops.send(protocol, 'update_profile', change(LISTED), user.bearer), 'update_profile');
      assert.ok((await ops.send('rest', 'login', { email: user.email, password: user.password })).ok, 'unchanged');
      const changed = await ops.send(protocol, 'update_profile', change(STRONG_2), user.bearer);
      assert.ok(changed.ok, `${protocol}: ${JSON.stringify(changed.body)}`);
      assert.ok((await ops.send('rest', 'login', { email: user.email, password: STRONG_2 })).ok);
    }
  });

  test('create_user with an initial password, and change_initial_password', async () => {
    for (const protocol of PROTOCOLS) {
      const email = `common-initial-${protocol}@example.com`;
      assertRefusedAsCommon(protocol, await ops.send(protocol, 'create_user', { email, password: LISTED }, 'admin'), 'create_user');
      await ops.over(protocol, 'create_user', { email, password: STRONG }, 'admin');
      const replace = (next: string) => ({ email, password: STRONG, new_password: next, confirm_new_password: next });
      assertRefusedAsCommon(protocol, await ops.send(protocol, 'change_initial_password', replace(LISTED)), 'change_initial_password');
      assert.ok((await ops.send(protocol, 'change_initial_password', replace(STRONG_2))).ok);
    }
  });
});

describe('--password-min-strength 3', () => {
  let server: TestServer;
  let ops: ReturnType<typeof threeProtocols>;
  before(async () => {
    server = await startServer(['--password-min-strength', '3']);
    ops = threeProtocols(() => server);
  });
  after(async () => {
    ops?.close();
    await server?.close();
  });

  test('a weak password that is not on the list is refused, a strong one passes, and meta says 3', async () => {
    for (const protocol of PROTOCOLS) {
      const email = `strength-${protocol}@example.com`;
      const refused = await ops.send(protocol, 'signup', { email, password: WEAK_UNLISTED, confirm_password: WEAK_UNLISTED });
      assert.equal(refused.ok, false);
      assert.equal(refused.code, CODES.invalid[protocol]);
      assert.equal(refused.message, WEAK_PASSWORD_MESSAGE);
      // The list still answers first, with its own message.
      assertRefusedAsCommon(protocol, await ops.send(protocol, 'signup', { email, password: LISTED, confirm_password: LISTED }), 'signup');
      assert.ok((await ops.send(protocol, 'signup', { email, password: STRONG, confirm_password: STRONG })).ok);
      assert.equal((await ops.over(protocol, 'meta', {}, 'anonymous')).password_min_strength, 3);
      assert.equal((await ops.over(protocol, 'admin_meta', {}, 'admin')).password_min_strength, 3);
    }
  });

  test("the person's own name and address count against the password, at signup and at a change", async () => {
    const own = 'Ada.Lovelace1!';
    for (const protocol of PROTOCOLS) {
      const email = `ada.lovelace.${protocol}@example.com`;
      const profile = { given_name: 'Ada', family_name: 'Lovelace' };
      const refused = await ops.send(protocol, 'signup', { email, ...profile, password: own, confirm_password: own });
      assert.equal(refused.message, WEAK_PASSWORD_MESSAGE, `${protocol}: ${JSON.stringify(refused.body)}`);
      // Someone else may choose it: it is not weak in itself.
      assert.ok((await ops.send(protocol, 'signup', { email: `grace-${protocol}@example.com`, given_name: 'Grace', password: own, confirm_password: own })).ok);
      const user = await signedInUser(server, { email, password: STRONG, profile });
      const change = await ops.send(protocol, 'update_profile', { old_password: STRONG, new_password: own, confirm_new_password: own }, user.bearer);
      assert.equal(change.message, WEAK_PASSWORD_MESSAGE);
    }
  });
});
