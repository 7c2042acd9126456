/**
 * The first-party API takes only the instance client's tokens and sessions (README "Security": token
 * audience). A registered client that a user consented to gets an access token for itself (aud = azp = its
 * client_id, OpenID Connect Core section 2); it may read the claims it was granted at /userinfo and be
 * checked by resource servers (RFC 7662 introspection, validate_jwt_token), but it is not the user: it may
 * not read the profile, change it or add its own passkey through the /v1 account operations, GraphQL or gRPC.
 * The instance client's bearer tokens and the session cookie keep working everywhere.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from '../support/app.ts';
import { SoftAuthenticator } from '../support/soft-authenticator.ts';
import { restClient } from '../support/rest-client.ts';
import {
  CALLBACK, PASSWORD, authorize, basicAuth, callAs, codeFrom, createClient, pkcePair, redirectParams, signedInBrowser, tokenRequest,
  type Browser, type RegisteredClient,
} from '../oauth/authorize-support.ts';
import { CODES, threeProtocols, type Protocol } from '../support/three-protocols.ts';

const ORIGIN = 'http://127.0.0.1:8080';
const PROTOCOLS: Protocol[] = ['rest', 'graphql', 'grpc'];

describe('the first-party API refuses a registered client\'s access token', () => {
  let server: TestServer;
  let client: RegisteredClient;
  let browser: Browser;
  let clientToken: string;
  let ops: ReturnType<typeof threeProtocols>;

  /** The user consents to the client's `openid` request; the client redeems the code with its secret. */
  async function consentedAccessToken(): Promise<string> {
    const { verifier, challenge } = pkcePair();
    const request = {
      client_id: client.clientId, redirect_uri: CALLBACK, response_type: 'code', state: 'st', code_challenge: challenge,
      code_challenge_method: 'S256', scope: 'openid',
    };
    const { url } = redirectParams(await authorize(server, request, browser.cookie));
    const decided = await callAs(server, browser, 'decide_authorization_request', { request_id: url.searchParams.get('request'), approve: true });
    assert.equal(decided.status, 200, JSON.stringify(decided.body));
    const resume = new URL(decided.body.redirect_uri);
    const code = await codeFrom(await authorize(server, Object.fromEntries(resume.searchParams), browser.cookie), 'st');
    const token = await tokenRequest(server, { grant_type: 'authorization_code', code, code_verifier: verifier, redirect_uri: CALLBACK },
      basicAuth(client.clientId, client.secret));
    assert.equal(token.status, 200, JSON.stringify(token.body));
    return token.body.access_token;
  }

  before(async () => {
    server = await startServer();
    ops = threeProtocols(server);
    client = await createClient(server, { name: 'Third Party App', redirect_uris: [CALLBACK], consent_required: true, allowed_scopes: ['openid'] });
    browser = await signedInBrowser(server);
    clientToken = await consentedAccessToken();
  });
  after(async () => {
    ops.close();
    await server.close();
  });

  const asClient = () => ({ authorization: `Bearer ${clientToken}` });

  for (const protocol of PROTOCOLS) {
    test(`${protocol}: profile, update_profile and passkey registration answer unauthenticated`, async () => {
      const attempts: [string, Record<string, unknown>][] = [
        ['profile', {}],
        ['update_profile', { given_name: 'Mallory' }],
        ['webauthn_registration_options', {}],
      ];
      for (const [name, input] of attempts) {
        const reply = await ops.send(protocol, name, input, asClient());
        assert.equal(reply.ok, false, `${name}: ${JSON.stringify(reply.body)}`);
        assert.equal(reply.code, CODES.unauthenticated[protocol], `${name}: ${JSON.stringify(reply.body)}`);
      }
      // A registration ceremony the user started: the client's token cannot finish it with its own key.
      const options = await ops.send(protocol, 'webauthn_registration_options', {}, { cookie: browser.cookie });
      assert.equal(options.ok, true, JSON.stringify(options.body));
      const credential = new SoftAuthenticator(ORIGIN).register(options.body.options);
      const verify = await ops.send(protocol, 'webauthn_registration_verify', { credential }, asClient());
      assert.equal(verify.code, CODES.unauthenticated[protocol], JSON.stringify(verify.body));
      const profile = await ops.send(protocol, 'profile', {}, { cookie: browser.cookie });
      assert.equal(profile.body.given_name, undefined, 'the profile was not changed');
      assert.deepEqual(profile.body.enrolled_mfa_methods ?? [], [], 'no passkey was added');
    });
  }

  test('the client\'s token still works at /userinfo, introspection and validate_jwt_token', async () => {
    const userinfo = await fetch(`${server.baseUrl}/userinfo`, { headers: asClient() });
    assert.equal(userinfo.status, 200);
    assert.equal(((await userinfo.json()) as { sub: string }).sub, browser.userId);

    const introspected = await fetch(`${server.baseUrl}/oauth/introspect`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...basicAuth(client.clientId, client.secret) },
      body: new URLSearchParams({ token: clientToken }).toString(),
    });
    const answer = (await introspected.json()) as { active: boolean; client_id: string };
    assert.deepEqual([answer.active, answer.client_id], [true, client.clientId]);

    for (const protocol of PROTOCOLS) {
      const valid = await ops.send(protocol, 'validate_jwt_token', { token_type: 'access_token', token: clientToken });
      assert.equal(valid.ok, true, `${protocol}: ${JSON.stringify(valid.body)}`);
      assert.equal(valid.body.claims.azp, client.clientId);
    }
  });

  test('the instance client\'s bearer token and the session cookie still work over every protocol', async () => {
    const login = await restClient(server).post('/v1/login', { email: browser.email, password: PASSWORD });
    assert.equal(login.status, 200);
    const credentials: Record<string, string>[] = [{ authorization: `Bearer ${login.body.access_token}` }, { cookie: browser.cookie }];
    for (const protocol of PROTOCOLS) {
      for (const headers of credentials) {
        const profile = await ops.send(protocol, 'profile', {}, headers);
        assert.equal(profile.ok, true, `${protocol} ${Object.keys(headers)[0]}: ${JSON.stringify(profile.body)}`);
        assert.equal(profile.body.email, browser.email);
      }
    }
  });
});
