/**
 * Passkeys at the MFA gate (docs/api-overview.md#states-and-transitions: "MFA offer pending, token withheld" ->
 * webauthn_registration_verify with the MFA cookie -> "MFA gate completed, access token issued"; the token
 * withheld while a challenge is pending; docs/api-overview.md#authentication the `mfa` cookie), the instance flags
 * (docs/api-overview.md#versioning), the per-IP
 * ceremony allowance, and the ceremonies over GraphQL and gRPC.
 *
 * Challenges come from real password logins (accounts/mfa-gate.ts); one offer-stage challenge is also
 * opened on the server's storage as the gate opens it (mfa-challenge.ts openChallenge), to name another
 * account in the request.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from '../support/app.ts';
import { cookieValue, restClient, type RestReply } from '../support/rest-client.ts';
import { createGrpcClient } from '../support/grpc-client.ts';
import { SoftAuthenticator } from '../support/soft-authenticator.ts';
import { TestClock } from '../support/test-clock.ts';
import { signedInUser } from '../support/signed-in-user.ts';
import { addPasskey, enrolTotp } from '../support/second-factors.ts';
import { openChallenge } from '../../server/modules/mfa/index.ts';
import { findUserByEmail } from '../../server/modules/users/index.ts';

const PASSWORD = 'Str0ng!pass-passkey-gate';
const ORIGIN = 'http://127.0.0.1:8080';

function amrOf(body: { id_token: string }): string[] {
  return JSON.parse(Buffer.from(body.id_token.split('.')[1]!, 'base64url').toString('utf8')).amr as string[];
}

describe('passkeys at the MFA gate', () => {
  const clock = new TestClock();
  let server: TestServer;
  let api: ReturnType<typeof restClient>;
  let count = 0;

  before(async () => {
    server = await startServer([], { clock });
    api = restClient(server);
  });
  after(async () => {
    await server?.close();
  });

  const mfaCookieOf = (reply: RestReply) => ({ cookie: `mfa=${cookieValue(reply.cookies, 'mfa')}` });

  const signedIn = () => signedInUser(server, { email: `gate-${++count}@example.com`, password: PASSWORD });
  const passkeyOf = async (bearer: Record<string, string>) => (await addPasskey(server, bearer)).authenticator;

  /** A user with an authenticator app and a passkey: every password login is challenged. */
  async function enrolled() {
    const user = await signedIn();
    await enrolTotp(server, user.bearer, clock);
    const authenticator = await passkeyOf(user.bearer);
    const challenged = await api.post('/v1/login', { email: user.email, password: PASSWORD });
    assert.equal(challenged.body.access_token, undefined, 'the password alone is challenged');
    return { ...user, authenticator, challenged, mfa: mfaCookieOf(challenged) };
  }

  /** The `mfa` cookie of a first-time offer for a user without a factor, opened as the gate opens it. */
  async function offer(email: string) {
    const { storage } = server.app.deps;
    const user = await findUserByEmail(storage.fork(), email);
    const cookie = await openChallenge(storage.fork(), server.app.deps, { userId: user!.id, stage: 'offer', roles: ['user'], scope: ['openid', 'email', 'profile'], loginMethod: 'basic_auth' });
    return { cookie: `mfa=${cookie}` };
  }

  test("a passkey completes a password login's challenge: the user's passkeys offered, user verification preferred", async () => {
    const user = await enrolled();
    const options = await api.post('/v1/webauthn_login_options', {}, user.mfa);
    const parsed = JSON.parse(options.body.options);
    assert.deepEqual(parsed.allowCredentials.map((c: { id: string }) => c.id), [user.authenticator.credentials[0]!.id.toString('base64url')]);
    assert.equal(parsed.userVerification, 'preferred');
    const answer = user.authenticator.assert(options.body.options, { userVerified: false });
    assert.equal((await api.post('/v1/webauthn_login_verify', { credential: answer })).status, 401, 'a gate ceremony needs its mfa cookie');

    const again = await api.post('/v1/webauthn_login_options', {}, user.mfa);
    const done = await api.post('/v1/webauthn_login_verify', { credential: user.authenticator.assert(again.body.options, { userVerified: false }) }, user.mfa);
    assert.equal(done.status, 200, JSON.stringify(done.body));
    assert.equal(typeof done.body.access_token, 'string');
    const amr = amrOf(done.body);
    assert.ok(amr.includes('pwd') && amr.includes('hwk') && amr.includes('mfa'), `amr ${JSON.stringify(amr)}`);
    assert.match(done.cookies.find((c) => c.startsWith('mfa='))!, /Max-Age=0/, 'the mfa cookie is cleared');
    const third = await api.post('/v1/webauthn_login_options', {}, user.mfa);
    assert.equal(JSON.parse(third.body.options).userVerification, 'required', 'a completed challenge is a gate no more');
  });

  test("a passwordless ceremony answered with the owner's challenged mfa cookie completes that challenge", async () => {
    const user = await enrolled();
    const options = await api.post('/v1/webauthn_login_options', {});
    const done = await api.post('/v1/webauthn_login_verify', { credential: user.authenticator.assert(options.body.options) }, user.mfa);
    assert.equal(done.status, 200, JSON.stringify(done.body));
    assert.ok(amrOf(done.body).includes('pwd'), 'the login the password began');
    assert.equal((await api.post('/v1/verify_otp', { otp: '000000', is_totp: true }, user.mfa)).status, 401, 'the challenge is closed');
  });

  test('a first-time offer is answered by registering a passkey: the withheld sign-in is issued, once', async () => {
    const user = await signedIn();
    const mfa = await offer(user.email);
    const authenticator = new SoftAuthenticator(ORIGIN);
    const options = await api.post('/v1/webauthn_registration_options', { email: user.email }, mfa);
    assert.equal(options.status, 200, JSON.stringify(options.body));
    const done = await api.post('/v1/webauthn_registration_verify', { credential: authenticator.register(options.body.options), email: user.email }, mfa);
    assert.equal(done.status, 200, JSON.stringify(done.body));
    assert.equal(typeof done.body.access_token, 'string', 'the offer path issues the withheld token');
    assert.deepEqual(done.body.user.enrolled_mfa_methods, ['webauthn']);
    const amr = amrOf(done.body);
    assert.ok(amr.includes('pwd') && amr.includes('hwk') && amr.includes('mfa'), `amr ${JSON.stringify(amr)}`);
    assert.equal((await api.post('/v1/webauthn_registration_options', {}, mfa)).status, 401, 'the offer is closed');

    const other = await signedIn();
    const otherOffer = await offer(other.email);
    const named = await api.post('/v1/webauthn_registration_options', { email: user.email }, otherOffer);
    assert.equal(named.status, 403, 'the request names another account');
  });

  test('through the gate itself: a passkey-only user is challenged for it, and a user who asked for a second factor is offered one', async () => {
    const user = await signedIn();
    const authenticator = await passkeyOf(user.bearer);
    const challenged = await api.post('/v1/login', { email: user.email, password: PASSWORD });
    assert.equal(challenged.body.should_offer_webauthn_mfa_verify, true, JSON.stringify(challenged.body));
    assert.equal(challenged.body.access_token, undefined);
    const options = await api.post('/v1/webauthn_login_options', {}, mfaCookieOf(challenged));
    const done = await api.post('/v1/webauthn_login_verify', { credential: authenticator.assert(options.body.options, { userVerified: false }) }, mfaCookieOf(challenged));
    assert.equal(done.status, 200, JSON.stringify(done.body));
    assert.ok(amrOf(done.body).includes('mfa'));

    const asking = await signedIn();
    assert.equal((await api.post('/v1/update_profile', { is_multi_factor_auth_enabled: true }, asking.bearer)).status, 200);
    const offered = await api.post('/v1/login', { email: asking.email, password: PASSWORD });
    assert.equal(offered.body.should_offer_webauthn_mfa_setup, true, JSON.stringify(offered.body));
    const fresh = new SoftAuthenticator(ORIGIN);
    const creation = await api.post('/v1/webauthn_registration_options', {}, mfaCookieOf(offered));
    const enrolledNow = await api.post('/v1/webauthn_registration_verify', { credential: fresh.register(creation.body.options) }, mfaCookieOf(offered));
    assert.equal(enrolledNow.status, 200, JSON.stringify(enrolledNow.body));
    assert.equal(typeof enrolledNow.body.access_token, 'string');
    const next = await api.post('/v1/login', { email: asking.email, password: PASSWORD });
    assert.equal(next.body.should_offer_webauthn_mfa_verify, true, 'the new passkey is asked for from then on');
  });

  test('the cookie of a verify-stage challenge cannot register a passkey (the password alone enrols nothing)', async () => {
    const user = await enrolled();
    assert.equal((await api.post('/v1/webauthn_registration_options', {}, user.mfa)).status, 401);
  });

  test('GraphQL: register while signed in, then sign in usernameless', async () => {
    const gql = async (query: string, variables: Record<string, unknown>, headers: Record<string, string> = {}) => {
      const res = await fetch(`${server.baseUrl}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: server.baseUrl, ...headers },
        body: JSON.stringify({ query, variables }),
      });
      return (await res.json()) as any;
    };
    const user = await signedIn();
    const authenticator = new SoftAuthenticator(ORIGIN);
    const options = await gql('mutation { webauthn_registration_options { options } }', {}, user.bearer);
    const registered = await gql(
      'mutation($p: WebauthnRegistrationVerifyRequest!) { webauthn_registration_verify(params: $p) { message access_token user { enrolled_mfa_methods } } }',
      { p: { credential: authenticator.register(options.data.webauthn_registration_options.options), name: 'phone' } },
      user.bearer,
    );
    assert.equal(registered.data.webauthn_registration_verify.access_token, null, JSON.stringify(registered));
    assert.deepEqual(registered.data.webauthn_registration_verify.user.enrolled_mfa_methods, ['webauthn']);
    const listed = await gql('query { webauthn_credentials { credentials { id name transports } } }', {}, user.bearer);
    assert.equal(listed.data.webauthn_credentials.credentials[0].name, 'phone');
    const loginOptions = await gql('mutation($email: String) { webauthn_login_options(email: $email) { options } }', { email: user.email });
    const login = await gql(
      'mutation($p: WebauthnLoginVerifyRequest!) { webauthn_login_verify(params: $p) { access_token user { email } } }',
      { p: { credential: authenticator.assert(loginOptions.data.webauthn_login_options.options) } },
    );
    assert.equal(login.data.webauthn_login_verify.user.email, user.email, JSON.stringify(login));
    const deleted = await gql('mutation($id: String!) { webauthn_delete_credential(id: $id) { message } }', { id: listed.data.webauthn_credentials.credentials[0].id }, user.bearer);
    assert.equal(deleted.data.webauthn_delete_credential.message, 'Passkey deleted');
  });

  test('gRPC: register while signed in, then sign in usernameless', async () => {
    const grpc = createGrpcClient(server.ports.grpc!);
    try {
      const user = await signedIn();
      const authenticator = new SoftAuthenticator(ORIGIN);
      const options = await grpc.call('PublicService', 'WebauthnRegistrationOptions', {}, user.bearer);
      const registered = await grpc.call('PublicService', 'WebauthnRegistrationVerify', { credential: authenticator.register(options.response.options as string) }, user.bearer);
      assert.equal(registered.response.access_token ?? undefined, undefined);
      const loginOptions = await grpc.call('PublicService', 'WebauthnLoginOptions', {});
      const login = await grpc.call('PublicService', 'WebauthnLoginVerify', { credential: authenticator.assert(loginOptions.response.options as string) });
      assert.equal(typeof login.response.access_token, 'string');
      const listed = await grpc.call('PublicService', 'WebauthnCredentials', {}, user.bearer);
      assert.equal((listed.response.credentials as unknown[]).length, 1);
    } finally {
      grpc.close();
    }
  });
});

describe('passkeys and the instance flags', () => {
  for (const flag of ['--disable-webauthn-mfa', '--disable-mfa']) {
    test(`${flag} turns every passkey ceremony off`, async () => {
      const server = await startServer([flag]);
      try {
        const api = restClient(server);
        assert.equal((await api.get('/v1/meta')).body.is_webauthn_enabled, false, 'meta says so');
        const email = 'flags@example.com';
        const { bearer } = await signedInUser(server, { email, password: PASSWORD });
        for (const [path, body] of [
          ['/v1/webauthn_registration_options', {}],
          ['/v1/webauthn_registration_verify', { credential: '{}' }],
          ['/v1/webauthn_login_options', {}],
          ['/v1/webauthn_login_verify', { credential: '{}' }],
        ] as const) {
          const reply = await api.post(path, body, bearer);
          assert.equal(reply.status, 400, `${path} ${JSON.stringify(reply.body)}`);
          assert.equal(reply.body.code, 'failed_precondition');
        }
      } finally {
        await server.close();
      }
    });
  }

  test('the public ceremonies spend a per-IP allowance of 60 a minute', async () => {
    const server = await startServer();
    try {
      const api = restClient(server);
      const statuses: number[] = [];
      for (let i = 0; i < 61; i++) statuses.push((await api.post('/v1/webauthn_login_options', {})).status);
      assert.deepEqual(statuses.slice(0, 60), new Array(60).fill(200));
      assert.equal(statuses[60], 429);
      const refused = await api.post('/v1/webauthn_login_verify', { credential: '{}' });
      assert.equal(refused.status, 429, 'verify spends the same allowance');
    } finally {
      await server.close();
    }
  });
});
