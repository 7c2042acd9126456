/**
 * `_import_users` with password hashes made by each format's reference implementation in the test itself
 * (bcryptjs, the argon2 package for argon2i and argon2id, node:crypto for scrypt and PBKDF2, Django's and
 * Firebase's constructions; docs/importing-users.md#hash-formats): each imported user signs in with the real
 * login operation, a wrong password is refused, and after the first right one the stored hash is the
 * server's argon2id, which signs in again. Firebase's published test vector (github.com/firebase/scrypt
 * README) is checked against the server's implementation; its project parameters are stored sealed.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { pbkdf2Sync, randomBytes, scryptSync } from 'node:crypto';
import bcryptjs from 'bcryptjs';
import argon2 from 'argon2';
import { adminProtocolsOnServer } from '../support/admin-protocols.ts';
import { restClient } from '../support/rest-client.ts';
import { User } from '../../server/modules/users/index.ts';
import { firebaseScryptHash } from '../../server/modules/passwords/index.ts';
import { login as openSessionFor } from '../tokens/support.ts';
import { ImportedHashKey } from '../../server/modules/accounts/import/imported-hash-key.entity.ts';

const PASSWORD = 'correct horse battery staple';
const b64 = (bytes: Buffer) => bytes.toString('base64').replace(/=+$/, '');

/** Firebase's published vector (github.com/firebase/scrypt, README "Password hashing"). */
const FIREBASE = {
  signer_key: 'jxspr8Ki0RYycVU8zykbdLGjFQ3McFUH0uiiTvC8pVMXAn210wjLNmdZJzxUECKbm0QsEmYUSDzZvpjeJ9WmXA==',
  salt_separator: 'Bw==',
  rounds: 8,
  mem_cost: 14,
  password: 'user1password',
  salt: '42xEC+ixf3L2lw==',
  hash: 'lSrfV15cpx95/sZS2W9c9Kp6i/LVgQNDNC/qzrCnh1SAyZvqmZqAjTdn3aoItz+VHjoZilo78198JAdRuid5lQ==',
};

async function referenceHashes(): Promise<Record<string, string>> {
  const salt = randomBytes(16);
  return {
    bcrypt: await bcryptjs.hash(PASSWORD, 10),
    'bcrypt-2y': (await bcryptjs.hash(PASSWORD, 8)).replace(/^\$2b\$/, '$2y$'),
    argon2id: await argon2.hash(PASSWORD, { type: argon2.argon2id, memoryCost: 8192, timeCost: 2, parallelism: 1 }),
    argon2i: await argon2.hash(PASSWORD, { type: argon2.argon2i, memoryCost: 4096, timeCost: 3, parallelism: 1 }),
    scrypt: `$scrypt$ln=14,r=8,p=1$${b64(salt)}$${b64(scryptSync(PASSWORD, salt, 32, { N: 2 ** 14, r: 8, p: 1 }))}`,
    // passlib's spelling: the iteration count bare, base64 with '.' for '+'.
    'pbkdf2-sha256': `$pbkdf2-sha256$29000$${b64(salt).replace(/\+/g, '.')}$${b64(pbkdf2Sync(PASSWORD, salt, 29000, 32, 'sha256')).replace(/\+/g, '.')}`,
    'pbkdf2-sha512': `$pbkdf2-sha512$i=25000,l=64$${b64(salt)}$${b64(pbkdf2Sync(PASSWORD, salt, 25000, 64, 'sha512'))}`,
    django: `pbkdf2_sha256$260000$Kq3xBzWl0cJm$${pbkdf2Sync(PASSWORD, 'Kq3xBzWl0cJm', 260000, 32, 'sha256').toString('base64')}`,
  };
}

describe('import_users: password hashes', () => {
  const on = adminProtocolsOnServer();
  const rest = () => restClient(on.server());
  const stored = (email: string) => on.server().app.deps.storage.fork().findOneOrFail(User, { email });
  const login = (email: string, password: string) => rest().post('/v1/login', { email, password });

  test('the Firebase test vector: the server computes the published hash', async () => {
    const hash = await firebaseScryptHash(FIREBASE.password, Buffer.from(FIREBASE.salt, 'base64'), {
      signerKey: Buffer.from(FIREBASE.signer_key, 'base64'),
      saltSeparator: Buffer.from(FIREBASE.salt_separator, 'base64'),
      rounds: FIREBASE.rounds,
      memCost: FIREBASE.mem_cost,
    });
    assert.equal(hash.toString('base64'), FIREBASE.hash);
  });

  test('each format signs in over the login operation, refuses a wrong password, then holds argon2id', async () => {
    const hashes = await referenceHashes();
    const lines = Object.entries(hashes).map(([format, hash]) => JSON.stringify({ email: `${format}@import.example`, password_hash: hash }));
    const answer = await on.over('rest', 'import_users', { lines: lines.join('\n') });
    assert.equal(answer.created, lines.length, JSON.stringify(answer.errors));
    assert.equal(answer.failed, 0);
    for (const format of Object.keys(hashes)) {
      const email = `${format}@import.example`;
      assert.ok(!(await stored(email)).passwordHash!.startsWith('$argon2id$v=19$m=19456'), `${format}: kept as imported until the first sign-in`);
      const wrong = await login(email, 'not the password');
      assert.equal(wrong.status, 401, `${format}: a wrong password is refused`);
      const right = await login(email, PASSWORD);
      assert.equal(right.status, 200, `${format}: ${JSON.stringify(right.body)}`);
      assert.ok(right.body.access_token, `${format}: signed in`);
      assert.match((await stored(email)).passwordHash!, /^\$argon2id\$v=19\$m=19456,t=2,p=1\$/, `${format}: rehashed with the server's argon2id`);
      assert.equal((await login(email, PASSWORD)).status, 200, `${format}: the rehashed password signs in`);
      assert.equal((await login(email, 'not the password')).status, 401, `${format}: and still refuses a wrong one`);
    }
  });

  test('Firebase scrypt over each protocol: parameters on the request or the first line, stored sealed', async () => {
    const { signer_key, salt_separator, rounds, mem_cost } = FIREBASE;
    const params = { signer_key, salt_separator, rounds, mem_cost };
    const user = (email: string) => JSON.stringify({ email, password_hash: { algorithm: 'firebase-scrypt', hash: FIREBASE.hash, salt: FIREBASE.salt } });
    const viaField = await on.over('graphql', 'import_users', { lines: user('firebase-graphql@import.example'), firebase_scrypt: params });
    assert.equal(viaField.created, 1, JSON.stringify(viaField.errors));
    const viaGrpc = await on.over('grpc', 'import_users', { lines: user('firebase-grpc@import.example'), firebase_scrypt: params });
    assert.equal(viaGrpc.created, 1, JSON.stringify(viaGrpc.errors));
    const viaHeader = await on.over('rest', 'import_users', { lines: [JSON.stringify({ firebase_scrypt: params }), user('firebase-rest@import.example')].join('\n') });
    assert.equal(viaHeader.created, 1, JSON.stringify(viaHeader.errors));
    const keys = await on.server().app.deps.storage.fork().find(ImportedHashKey, {});
    assert.equal(keys.length, 1, 'one row for one project, however often it is imported');
    assert.ok(!keys[0]!.paramsSealed.includes(signer_key) && !keys[0]!.paramsSealed.includes(signer_key.slice(0, 20)), 'the signer key is sealed');
    assert.match((await stored('firebase-rest@import.example')).passwordHash!, /^\$firebase-scrypt\$k=fb[\w-]+\$/);
    for (const protocol of ['graphql', 'grpc', 'rest']) {
      const email = `firebase-${protocol}@import.example`;
      assert.equal((await login(email, 'user2password')).status, 401);
      const right = await login(email, FIREBASE.password);
      assert.equal(right.status, 200, JSON.stringify(right.body));
      assert.match((await stored(email)).passwordHash!, /^\$argon2id\$/);
    }
    const noParams = await on.over('rest', 'import_users', { lines: user('firebase-none@import.example') });
    assert.equal(noParams.failed, 1);
    assert.match(noParams.errors[0].reason, /needs the project parameters/);
  });

  test('a Firebase-imported password is the current password update_profile checks', async () => {
    const { signer_key, salt_separator, rounds, mem_cost } = FIREBASE;
    const email = 'firebase-profile@import.example';
    const line = JSON.stringify({ email, password_hash: { algorithm: 'firebase-scrypt', hash: FIREBASE.hash, salt: FIREBASE.salt } });
    const imported = await on.over('rest', 'import_users', { lines: line, firebase_scrypt: { signer_key, salt_separator, rounds, mem_cost } });
    assert.equal(imported.created, 1, JSON.stringify(imported.errors));
    // A session opened without the password (as a magic link would), so the imported hash is still the stored one.
    const { tokens } = await openSessionFor(on.server().app, await stored(email));
    assert.match((await stored(email)).passwordHash!, /^\$firebase-scrypt\$/);
    const bearer = { authorization: `Bearer ${tokens.access_token}` };
    const change = (old_password: string) =>
      rest().post('/v1/update_profile', { old_password, new_password: 'A fresh Passphrase 42!', confirm_new_password: 'A fresh Passphrase 42!' }, bearer);
    const wrong = await change('user2password');
    assert.equal(wrong.status, 400, JSON.stringify(wrong.body));
    assert.match(JSON.stringify(wrong.body), /old password is not correct/);
    const right = await change(FIREBASE.password);
    assert.equal(right.status, 200, JSON.stringify(right.body));
    assert.match((await stored(email)).passwordHash!, /^\$argon2id\$/);
    assert.equal((await login(email, 'A fresh Passphrase 42!')).status, 200);
  });

  test('absurd costs and malformed hashes are refused per line, saying the bound', async () => {
    const salt = b64(randomBytes(16));
    const digest = b64(randomBytes(32));
    const cases: [string, RegExp][] = [
      [(await bcryptjs.hash('x', 4)).replace(/^\$2b\$04\$/, '$2b$15$'), /bcrypt cost 15 is outside 4 to 12/],
      [`$argon2id$v=19$m=1048576,t=2,p=1$${salt}$${digest}`, /argon2 memory 1048576 KiB is outside/],
      [`$argon2id$v=19$m=65536,t=10,p=1$${salt}$${digest}`, /memory times passes/],
      [`$argon2d$v=19$m=4096,t=3,p=1$${salt}$${digest}`, /not an argon2id or argon2i/],
      [`$scrypt$ln=22,r=8,p=1$${salt}$${digest}`, /scrypt ln 22 is outside/],
      [`$scrypt$ln=18,r=8,p=1$${salt}$${digest}`, /scrypt would use 256 MiB/],
      [`$pbkdf2-sha256$i=50000000$${salt}$${digest}`, /iterations 50000000 are outside/],
      [`pbkdf2_sha256$99999999$abc$${digest}`, /iterations 99999999 are outside/],
      ['$2b$10$short', /not a bcrypt hash/],
      ['md5$abc$def', /unknown hash format/],
      [`$scrypt$ln=14,r=8,p=1$${salt}$!!notbase64`, /hash is not base64/],
    ];
    const lines = cases.map(([hash], index) => JSON.stringify({ email: `bad-hash-${index}@import.example`, password_hash: hash }));
    const answer = await on.over('rest', 'import_users', { lines: lines.join('\n') });
    assert.equal(answer.created, 0);
    assert.equal(answer.failed, cases.length);
    cases.forEach(([, reason], index) => {
      assert.equal(answer.errors[index].line, index + 1);
      assert.match(answer.errors[index].reason, reason);
    });
    const bigFirebase = await on.call('rest', 'import_users', { lines: '', firebase_scrypt: { signer_key: FIREBASE.signer_key, salt_separator: 'Bw==', rounds: 8, mem_cost: 20 } });
    assert.ok('error' in bigFirebase && bigFirebase.error === 'invalid_argument', JSON.stringify(bigFirebase));
  });
});
