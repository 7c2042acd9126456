/**
 * The ID token of a registered client carries the claims about the user that its granted scope asks for
 * (OpenID Connect Core section 5.4: profile, email, phone), the same as /userinfo answers for its access
 * token, and nothing of this server's own User object (app_data, signup methods, MFA state). The instance
 * client's ID token keeps the whole User object, which the first-party SDK reads.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { decodeJwt } from 'jose';
import { startServer, CLIENT_ID, CLIENT_SECRET, type TestServer } from '../support/app.ts';
import { adminClient } from '../support/admin-client.ts';
import {
  CALLBACK, authorize, basicAuth, callAs, codeFrom, createClient, pkcePair, signedInBrowser, tokenRequest, type Browser, type RegisteredClient,
} from '../oauth/authorize-support.ts';

/** Claims about the user that only the first-party User object carries. */
const FIRST_PARTY_ONLY = ['id', 'app_data', 'signup_methods', 'enrolled_mfa_methods', 'created_at', 'is_multi_factor_auth_enabled'];
const PROFILE_CLAIMS = ['given_name', 'family_name', 'nickname', 'preferred_username', 'birthdate', 'updated_at'];

describe('ID token claims by granted scope', () => {
  let server: TestServer;
  let client: RegisteredClient;
  let browser: Browser;

  before(async () => {
    server = await startServer(['--redirect-uris', CALLBACK]);
    client = await createClient(server, { name: 'Relying party', redirect_uris: [CALLBACK], allowed_scopes: ['openid', 'email', 'profile', 'phone'] });
    browser = await signedInBrowser(server);
    const profile = {
      given_name: 'Ada', family_name: 'Lovelace', nickname: 'ada', birthdate: '1815-12-10', phone_number: '+15550001234',
      app_data: { plan: 'gold' },
    };
    const updated = await callAs(server, browser, 'update_profile', { ...profile, old_password: 'Str0ng!pass' });
    assert.equal(updated.status, 200, JSON.stringify(updated.body));
  });
  after(() => server.close());

  /** A code flow for `clientId` with `scope`, redeemed with `fields` and `headers`; the ID token's claims and the access token. */
  async function tokensFor(clientId: string, scope: string, fields: Record<string, string>, headers: Record<string, string> = {}) {
    const { verifier, challenge } = pkcePair();
    const code = await codeFrom(await authorize(server, {
      client_id: clientId, redirect_uri: CALLBACK, response_type: 'code', state: 's', code_challenge: challenge,
      code_challenge_method: 'S256', scope,
    }, browser.cookie), 's');
    const token = await tokenRequest(server, { grant_type: 'authorization_code', code, code_verifier: verifier, redirect_uri: CALLBACK, ...fields }, headers);
    assert.equal(token.status, 200, JSON.stringify(token.body));
    return { idClaims: decodeJwt(token.body.id_token) as Record<string, unknown>, accessToken: token.body.access_token as string };
  }
  const registered = (scope: string) => tokensFor(client.clientId, scope, {}, basicAuth(client.clientId, client.secret));

  async function userinfo(accessToken: string): Promise<Record<string, unknown>> {
    const res = await fetch(`${server.baseUrl}/userinfo`, { headers: { authorization: `Bearer ${accessToken}` } });
    assert.equal(res.status, 200);
    return (await res.json()) as Record<string, unknown>;
  }

  /** The claims about the user in an ID token: what is not about the token itself or the roles. */
  function userClaimsOf(claims: Record<string, unknown>): Record<string, unknown> {
    const roleClaim = server.app.deps.config.jwtRoleClaim;
    const tokenClaims = ['iss', 'aud', 'azp', 'sub', 'iat', 'exp', 'nonce', 'jti', 'token_type', 'at_hash', 'auth_time', 'amr', 'acr', 'login_method', 'allowed_roles', 'roles', 'sid', roleClaim];
    return Object.fromEntries(Object.entries(claims).filter(([name]) => !tokenClaims.includes(name)));
  }

  test('openid alone: no email, profile, phone or app_data in the ID token', async () => {
    const { idClaims } = await registered('openid');
    assert.equal(idClaims.sub, browser.userId);
    assert.equal(idClaims.aud, client.clientId);
    assert.deepEqual(userClaimsOf(idClaims), {}, JSON.stringify(idClaims));
  });

  test('email: the address and whether this server proved it, nothing else', async () => {
    const unproven = await registered('openid email');
    assert.deepEqual(userClaimsOf(unproven.idClaims), { email: browser.email, email_verified: false });
    // An administrator vouches for the address: now it is proven (users/address-proof.ts).
    await adminClient(server).ok('update_user', { id: browser.userId, email_verified: true });
    const proven = await registered('openid email');
    assert.deepEqual(userClaimsOf(proven.idClaims), { email: browser.email, email_verified: true });
  });

  test('profile and phone add their standard claims; the ID token says what /userinfo says', async () => {
    const { idClaims, accessToken } = await registered('openid profile phone');
    const claims = userClaimsOf(idClaims);
    for (const name of PROFILE_CLAIMS.filter((n) => n !== 'preferred_username')) assert.ok(name in claims, `${name} with profile`);
    assert.equal(claims.given_name, 'Ada');
    assert.equal(claims.preferred_username, undefined, 'no stored preferred_username, and the email is not one');
    assert.equal(claims.phone_number, '+15550001234');
    assert.equal(claims.phone_number_verified, false);
    assert.equal(claims.email, undefined);
    for (const name of FIRST_PARTY_ONLY) assert.equal(claims[name], undefined, name);
    const info = await userinfo(accessToken);
    assert.deepEqual(userClaimsOf(info), claims, 'one scope-to-claims rule for the ID token and /userinfo');
  });

  test('the instance client\'s ID token keeps the User object the SDK reads, whatever the scope', async () => {
    const { idClaims } = await tokensFor(CLIENT_ID, 'openid', { client_id: CLIENT_ID, client_secret: CLIENT_SECRET });
    assert.equal(idClaims.aud, CLIENT_ID);
    assert.equal(idClaims.email, browser.email);
    assert.equal(idClaims.given_name, 'Ada');
    assert.deepEqual(idClaims.app_data, { plan: 'gold' });
    assert.equal(idClaims.id, browser.userId);
    assert.equal(typeof idClaims.email_verified, 'boolean');
  });
});
