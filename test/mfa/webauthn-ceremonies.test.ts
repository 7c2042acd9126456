/**
 * Passkeys end to end over REST with a software authenticator (test/support/soft-authenticator.ts), no
 * browser (docs/operations.md webauthn_*; W3C WebAuthn Level 3 sections 7.1 and 7.2): a signed-in user
 * registers one (no token in the answer), signs in with it usernameless or by email, and lists and deletes
 * their own. Each check of section 7.2 is broken once and refused: a reused challenge, another origin,
 * another RP ID, a sign count that does not move forward, no user verification on a passwordless sign-in.
 * An unknown email's options look like a real account's; another user's passkey cannot be listed or deleted.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { decodeJwt } from 'jose';
import { startServer, type TestServer } from '../support/app.ts';
import { restClient } from '../support/rest-client.ts';
import { SoftAuthenticator } from '../support/soft-authenticator.ts';
import { signedInUser } from '../support/signed-in-user.ts';
import { addPasskey } from '../support/second-factors.ts';

const PASSWORD = 'Str0ng!pass-passkeys';
/** The test server's --url (test/support/app.ts): the expected origin, and its host the RP ID. */
const ORIGIN = 'http://127.0.0.1:8080';

describe('passkeys over REST', () => {
  let server: TestServer;
  let api: ReturnType<typeof restClient>;
  let count = 0;

  before(async () => {
    server = await startServer();
    api = restClient(server);
  });
  after(async () => {
    await server?.close();
  });

  const signedIn = () => signedInUser(server, { email: `passkey-${++count}@example.com`, password: PASSWORD });

  /** A signed-in user with one passkey on a fresh authenticator. */
  async function withPasskey(name?: string) {
    const user = await signedIn();
    return { ...user, ...(await addPasskey(server, user.bearer, { name })) };
  }

  const loginOptions = async (body: Record<string, unknown> = {}) => {
    const reply = await api.post('/v1/webauthn_login_options', body);
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    return reply.body.options as string;
  };
  const loginVerify = (credential: string, headers?: Record<string, string>) => api.post('/v1/webauthn_login_verify', { credential }, headers);

  test('a signed-in user registers a passkey: no token, listed by name, enrolled, and excluded from the next registration', async () => {
    const user = await signedIn();
    const authenticator = new SoftAuthenticator(ORIGIN);
    const reply = await api.post('/v1/webauthn_registration_options', {}, user.bearer);
    assert.equal(reply.status, 200);
    const options = JSON.parse(reply.body.options);
    assert.equal(options.rp.id, '127.0.0.1');
    assert.equal(options.attestation, 'none');
    assert.equal(options.authenticatorSelection.residentKey, 'preferred');
    assert.ok(Buffer.from(options.challenge, 'base64url').length >= 16, 'a challenge of at least 16 random bytes');
    assert.equal(Buffer.from(options.user.id, 'base64url').toString('utf8').length, 36, 'the user handle is the account id, no email');
    assert.deepEqual(options.excludeCredentials, []);

    const registered = await api.post('/v1/webauthn_registration_verify', { credential: authenticator.register(reply.body.options), name: 'Work laptop' }, user.bearer);
    assert.equal(registered.status, 200, JSON.stringify(registered.body));
    assert.equal(registered.body.access_token, undefined, 'a signed-in registration issues no token');
    assert.deepEqual(registered.body.user.enrolled_mfa_methods, ['webauthn']);

    const listed = await api.post('/v1/webauthn_credentials', {}, user.bearer);
    assert.equal(listed.status, 200);
    assert.equal(listed.body.credentials.length, 1);
    const [passkey] = listed.body.credentials;
    assert.equal(passkey.name, 'Work laptop');
    assert.deepEqual(passkey.transports, ['hybrid', 'internal']);
    assert.equal(typeof passkey.created_at, 'number');
    assert.equal(passkey.last_used_at, undefined);
    assert.equal(JSON.stringify(listed.body).includes(authenticator.credentials[0]!.id.toString('base64url')), false, 'the credential id is not listed');

    const again = JSON.parse((await api.post('/v1/webauthn_registration_options', {}, user.bearer)).body.options);
    assert.deepEqual(again.excludeCredentials.map((c: { id: string }) => c.id), [authenticator.credentials[0]!.id.toString('base64url')]);
    assert.throws(() => authenticator.register(JSON.stringify(again)), /InvalidStateError/);
  });

  test('registration refuses a reused challenge, another origin and another RP ID', async () => {
    const user = await signedIn();
    const authenticator = new SoftAuthenticator(ORIGIN);
    const verify = (credential: string) => api.post('/v1/webauthn_registration_verify', { credential }, user.bearer);
    const first = (await api.post('/v1/webauthn_registration_options', {}, user.bearer)).body.options;
    assert.equal((await verify(authenticator.register(first, { origin: 'https://evil.example' }))).status, 400);
    assert.equal((await verify(new SoftAuthenticator(ORIGIN).register(first))).status, 400, 'the refused attempt spent the challenge');
    const second = (await api.post('/v1/webauthn_registration_options', {}, user.bearer)).body.options;
    assert.equal((await verify(new SoftAuthenticator(ORIGIN).register(second, { rpId: 'evil.example' }))).status, 400);
    const third = (await api.post('/v1/webauthn_registration_options', {}, user.bearer)).body.options;
    const good = new SoftAuthenticator(ORIGIN).register(third);
    assert.equal((await verify(good)).status, 200);
    assert.equal((await verify(good)).status, 400, 'the same answer twice');
    const other = await signedIn();
    const stolen = (await api.post('/v1/webauthn_registration_options', {}, user.bearer)).body.options;
    const crossed = await api.post('/v1/webauthn_registration_verify', { credential: new SoftAuthenticator(ORIGIN).register(stolen) }, other.bearer);
    assert.equal(crossed.status, 400, "another account's ceremony");
    assert.equal((await api.post('/v1/webauthn_registration_options', {})).status, 401, 'anonymous callers cannot register');
  });

  test('usernameless sign-in: any discoverable passkey, user verification required, tokens with amr hwk', async () => {
    const user = await withPasskey();
    const options = JSON.parse(await loginOptions());
    assert.equal(options.allowCredentials, undefined);
    assert.equal(options.userVerification, 'required');
    assert.equal(options.rpId, '127.0.0.1');
    const done = await loginVerify(user.authenticator.assert(JSON.stringify(options)));
    assert.equal(done.status, 200, JSON.stringify(done.body));
    assert.equal(typeof done.body.access_token, 'string');
    assert.equal(done.body.user.email, user.email);
    assert.deepEqual(decodeJwt(done.body.id_token).amr, ['hwk']);
    assert.ok(done.cookies.some((c) => c.startsWith('cookie_session=')), 'the session cookie is set');
    assert.equal((await api.post('/v1/validate_jwt_token', { token_type: 'access_token', token: done.body.access_token })).status, 200);
    const listed = await api.post('/v1/webauthn_credentials', {}, user.bearer);
    assert.equal(typeof listed.body.credentials[0].last_used_at, 'number');
  });

  test("sign-in with an email offers that account's passkeys; an unknown email or an account without one looks alike", async () => {
    const user = await withPasskey();
    const own = JSON.parse(await loginOptions({ email: user.email.toUpperCase() }));
    assert.deepEqual(own.allowCredentials.map((c: { id: string }) => c.id), [user.authenticator.credentials[0]!.id.toString('base64url')]);
    const done = await loginVerify(user.authenticator.assert(JSON.stringify(own)));
    assert.equal(done.status, 200);

    const unknown = JSON.parse(await loginOptions({ email: 'nobody-here@example.com' }));
    const unknownAgain = JSON.parse(await loginOptions({ email: 'nobody-here@example.com' }));
    const without = JSON.parse(await loginOptions({ email: (await signedIn()).email }));
    for (const decoy of [unknown, without]) {
      assert.deepEqual(Object.keys(decoy).sort(), Object.keys(own).sort());
      assert.equal(decoy.allowCredentials.length, 1);
      assert.equal(Buffer.from(decoy.allowCredentials[0].id, 'base64url').length, 32);
      assert.deepEqual(Object.keys(decoy.allowCredentials[0]).sort(), Object.keys(own.allowCredentials[0]).sort());
    }
    assert.deepEqual(unknown.allowCredentials, unknownAgain.allowCredentials, 'the same made-up ids at every call');
    assert.notDeepEqual(unknown.allowCredentials, without.allowCredentials);

    const other = await withPasskey();
    const forOther = await loginOptions({ email: other.email });
    const wrongAccount = await loginVerify(user.authenticator.assert(forOther, { credential: user.authenticator.credentials[0] }));
    assert.equal(wrongAccount.status, 401, "a ceremony for one account does not take another account's passkey");
  });

  test('a challenge works once', async () => {
    const user = await withPasskey();
    const options = await loginOptions();
    const answer = user.authenticator.assert(options);
    assert.equal((await loginVerify(answer)).status, 200);
    const replay = await loginVerify(answer);
    assert.equal(replay.status, 401);
    assert.equal(replay.body.message, 'passkey sign-in failed');
    assert.equal((await loginVerify(user.authenticator.assert(options))).status, 401, 'a fresh signature over a spent challenge');
    assert.equal((await loginVerify(user.authenticator.assert(options, { challenge: Buffer.alloc(32, 7).toString('base64url') }))).status, 401, 'a challenge never issued');
  });

  test('another origin, another RP ID and a missing user verification are refused, and spend the challenge', async () => {
    const user = await withPasskey();
    for (const tweaks of [{ origin: 'https://evil.example' }, { origin: 'http://127.0.0.1:8081' }, { rpId: 'evil.example' }, { userVerified: false }]) {
      const options = await loginOptions();
      const refused = await loginVerify(user.authenticator.assert(options, tweaks));
      assert.equal(refused.status, 401, JSON.stringify(tweaks));
      assert.equal(refused.body.message, 'passkey sign-in failed');
      assert.equal((await loginVerify(user.authenticator.assert(options))).status, 401, `the challenge outlived ${JSON.stringify(tweaks)}`);
    }
    assert.equal((await loginVerify(user.authenticator.assert(await loginOptions()))).status, 200);
  });

  test('a sign count that does not move forward is refused (a cloned authenticator)', async () => {
    const user = await withPasskey();
    assert.equal((await loginVerify(user.authenticator.assert(await loginOptions(), { counter: 5 }))).status, 200);
    assert.equal((await loginVerify(user.authenticator.assert(await loginOptions(), { counter: 5 }))).status, 401, 'the same count');
    assert.equal((await loginVerify(user.authenticator.assert(await loginOptions(), { counter: 3 }))).status, 401, 'a count that went back');
    assert.equal((await loginVerify(user.authenticator.assert(await loginOptions(), { counter: 0 }))).status, 401, 'zero after a non-zero count');
    assert.equal((await loginVerify(user.authenticator.assert(await loginOptions(), { counter: 6 }))).status, 200);
  });

  test('a malformed credential is invalid, an unknown one unauthenticated', async () => {
    for (const credential of ['not json', '{}', JSON.stringify({ id: 'a', rawId: 'b', type: 'public-key', response: {} })]) {
      assert.equal((await loginVerify(credential)).status, 400, credential);
    }
    const stranger = new SoftAuthenticator(ORIGIN);
    stranger.register(JSON.stringify({ challenge: 'AAAAAAAAAAAAAAAAAAAAAA', rp: { id: '127.0.0.1' }, user: { id: 'eA' } }));
    assert.equal((await loginVerify(stranger.assert(await loginOptions()))).status, 401);
  });

  test("own passkeys only: another user's are neither listed nor deletable, and the last one deleted ends the enrolment", async () => {
    const alice = await withPasskey('alice key');
    const bob = await withPasskey('bob key');
    const aliceId = (await api.post('/v1/webauthn_credentials', {}, alice.bearer)).body.credentials[0].id as string;
    const bobList = await api.post('/v1/webauthn_credentials', {}, bob.bearer);
    assert.deepEqual(bobList.body.credentials.map((c: { name: string }) => c.name), ['bob key']);

    const foreign = await api.post('/v1/webauthn_delete_credential', { id: aliceId }, bob.bearer);
    const unknown = await api.post('/v1/webauthn_delete_credential', { id: '00000000-0000-4000-8000-000000000000' }, bob.bearer);
    assert.equal(foreign.status, 404);
    assert.deepEqual(foreign.body, unknown.body, "another user's passkey answers like an unknown id");
    assert.equal((await api.post('/v1/webauthn_credentials', {}, alice.bearer)).body.credentials.length, 1);
    assert.equal((await api.post('/v1/webauthn_delete_credential', { id: aliceId })).status, 401, 'anonymous');

    const deleted = await api.post('/v1/webauthn_delete_credential', { id: aliceId }, alice.bearer);
    assert.equal(deleted.status, 200);
    assert.deepEqual((await api.post('/v1/webauthn_credentials', {}, alice.bearer)).body.credentials, []);
    assert.deepEqual((await api.get('/v1/profile', alice.bearer)).body.enrolled_mfa_methods, []);
    assert.equal((await loginVerify(alice.authenticator.assert(await loginOptions()))).status, 401, 'a deleted passkey signs in no more');
  });
});
