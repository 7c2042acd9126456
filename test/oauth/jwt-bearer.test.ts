/**
 * The jwt-bearer grant (RFC 7523 section 2.1) at POST /oauth/token against a real JWKS over loopback HTTP:
 * an assertion of an active trusted issuer becomes an access token for the issuer's subject_claim, issued
 * to the owning client (aud = azp = client_id = that client), with its allowed scopes and no refresh token.
 * Failures: replay, wrong aud, expired, HS256, unknown iss, inactive issuer, inactive owner, a missing
 * subject claim, a scope outside allowed_scopes, and another authenticated client spending the assertion.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { SignJWT, decodeJwt, jwtVerify } from 'jose';
import { CLIENT_ID, CLIENT_SECRET, startServer, type TestServer } from '../support/app.ts';
import { CLIENT_ASSERTION_TYPE, JWT_BEARER, JwksServer, LOOPBACK_JWKS_FLAG, TOKEN_ENDPOINT_AUD, addIssuer, createClient, newSigningKey, signAssertion, tokenRequest, type SigningKey } from './trusted-issuer-fixture.ts';
import { adminClient } from '../support/admin-client.ts';

const ISS = 'https://cluster.example/oidc';
const AUD = 'https://portcullis.example/workloads';

describe('jwt-bearer grant', () => {
  let server: TestServer;
  let jwks: JwksServer;
  let key: SigningKey;
  let owner: any;
  let issuer: any;

  before(async () => {
    server = await startServer([LOOPBACK_JWKS_FLAG]);
    jwks = await new JwksServer().start();
    key = await newSigningKey('EdDSA');
    jwks.keys = [key.publicJwk];
    owner = await createClient(server, { name: 'batch jobs' });
    issuer = await addIssuer(server, {
      service_account_id: owner.client_id, name: 'cluster', issuer: ISS, jwks_url: jwks.url, audience: AUD,
      subject_claim: 'workload', spiffe_hint: 'spiffe://cluster.example',
    });
  });
  after(async () => {
    await jwks?.close();
    await server?.close();
  });

  const grantAssertion = (claims: Record<string, unknown> = {}, signingKey = key) =>
    signAssertion(signingKey, { iss: ISS, sub: 'system:serviceaccount:jobs:runner', workload: 'jobs/runner', aud: AUD, ...claims });

  const exchange = (assertion: string, extra: Record<string, string> = {}) =>
    tokenRequest(server, { grant_type: JWT_BEARER, assertion, ...extra });

  function assertInvalidGrant(res: { status: number; body: any }, description: RegExp) {
    assert.equal(res.status, 400, JSON.stringify(res.body));
    assert.equal(res.body.error, 'invalid_grant');
    assert.match(res.body.error_description, description);
  }

  test('an assertion of the trusted issuer becomes an access token of the owning client for its subject_claim', async () => {
    const res = await exchange(await grantAssertion());
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.headers.get('cache-control'), 'no-store');
    assert.equal(res.body.token_type, 'Bearer');
    assert.equal(res.body.expires_in, 1800);
    assert.equal(res.body.scope, 'jobs:read jobs:run');
    assert.equal(res.body.refresh_token, undefined);
    assert.equal(res.body.id_token, undefined);
    const claims = decodeJwt(res.body.access_token);
    assert.equal(claims.sub, 'jobs/runner', 'the subject is the issuer\'s subject_claim, not sub');
    assert.equal(claims.aud, owner.client_id);
    assert.equal(claims.azp, owner.client_id);
    assert.equal(claims.client_id, owner.client_id);
    assert.equal(claims.iss, 'http://127.0.0.1:8080');
    assert.equal(claims.token_type, 'access_token');
    // Signed with the server's own key, like every token it issues.
    const { keys } = server.app.deps;
    const verified = await jwtVerify(res.body.access_token, keys.verifyKey, { algorithms: [keys.alg] });
    assert.equal(verified.payload.sub, 'jobs/runner');
  });

  test('a narrower scope within allowed_scopes is granted; one outside is invalid_scope', async () => {
    const narrow = await exchange(await grantAssertion(), { scope: 'jobs:read' });
    assert.equal(narrow.status, 200, JSON.stringify(narrow.body));
    assert.equal(narrow.body.scope, 'jobs:read');
    const wide = await exchange(await grantAssertion(), { scope: 'jobs:read admin' });
    assert.equal(wide.status, 400);
    assert.equal(wide.body.error, 'invalid_scope');
  });

  test('a replayed assertion is invalid_grant', async () => {
    const once = await grantAssertion();
    assert.equal((await exchange(once)).status, 200);
    assertInvalidGrant(await exchange(once), /already used/);
  });

  test('wrong aud, expired, missing jti, a far exp, HS256 and an unknown iss are refused', async () => {
    assertInvalidGrant(await exchange(await grantAssertion({ aud: TOKEN_ENDPOINT_AUD })), /aud/);
    const past = Math.floor(Date.now() / 1000) - 600;
    assertInvalidGrant(await exchange(await grantAssertion({ iat: past - 60, exp: past })), /expired/);
    assertInvalidGrant(await exchange(await grantAssertion({ exp: Math.floor(Date.now() / 1000) + 3 * 86400 })), /too far ahead/);
    const now = Math.floor(Date.now() / 1000);
    const noJti = await new SignJWT({ iss: ISS, aud: AUD, workload: 'x', exp: now + 60 })
      .setProtectedHeader({ alg: key.alg, kid: key.kid }).sign(key.privateKey);
    assertInvalidGrant(await exchange(noJti), /jti/);
    const hs = await new SignJWT({ iss: ISS, aud: AUD, workload: 'x', exp: now + 60, jti: randomUUID() })
      .setProtectedHeader({ alg: 'HS256' }).sign(new TextEncoder().encode('k'.repeat(32)));
    assertInvalidGrant(await exchange(hs), /asymmetric/);
    assertInvalidGrant(await exchange(await grantAssertion({ iss: 'https://unknown.example' })), /not an active trusted issuer/);
    const stranger = await newSigningKey('ES256');
    assertInvalidGrant(await exchange(await grantAssertion({}, stranger)), /no key|signature/);
  });

  test('an assertion without the subject claim is refused', async () => {
    assertInvalidGrant(await exchange(await grantAssertion({ workload: undefined })), /workload claim/);
  });

  test('a missing assertion is invalid_request', async () => {
    const res = await tokenRequest(server, { grant_type: JWT_BEARER });
    assert.equal(res.status, 400);
    assert.equal(res.body.error, 'invalid_request');
  });

  test('an inactive issuer and an inactive owning client cannot be used', async () => {
    await adminClient(server).call('update_trusted_issuer', { id: issuer.id, is_active: false });
    assertInvalidGrant(await exchange(await grantAssertion()), /not an active trusted issuer/);
    await adminClient(server).call('update_trusted_issuer', { id: issuer.id, is_active: true });
    await adminClient(server).call('update_client', { id: owner.id, is_active: false });
    assertInvalidGrant(await exchange(await grantAssertion()), /not active/);
    await adminClient(server).call('update_client', { id: owner.id, is_active: true });
    assert.equal((await exchange(await grantAssertion())).status, 200);
  });

  test('another authenticated client cannot spend the assertion; the owner authenticated by private_key_jwt can', async () => {
    const basic = `Basic ${Buffer.from(`${CLIENT_ID}:${CLIENT_SECRET}`).toString('base64')}`;
    const res = await fetch(`${server.baseUrl}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basic },
      body: new URLSearchParams({ grant_type: JWT_BEARER, assertion: await grantAssertion() }).toString(),
    });
    const body = await res.json();
    assert.equal(res.status, 400, JSON.stringify(body));
    assert.equal(body.error, 'invalid_grant');
    assert.match(body.error_description, /authenticated client does not trust/);

    // The owner proves itself with a client assertion signed by a key of the same issuer's JWKS.
    const clientAssertion = await signAssertion(key, { iss: owner.client_id, sub: owner.client_id, aud: TOKEN_ENDPOINT_AUD });
    const ok = await exchange(await grantAssertion(), { client_assertion_type: CLIENT_ASSERTION_TYPE, client_assertion: clientAssertion });
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
    assert.equal(decodeJwt(ok.body.access_token).client_id, owner.client_id);
  });

  test('two clients trusting one iss are told apart by the audience each expects', async () => {
    const second = await createClient(server, { name: 'second tenant', allowed_scopes: ['reports:read'] });
    await addIssuer(server, { client_id: second.client_id, name: 'cluster too', issuer: ISS, jwks_url: jwks.url, audience: 'https://second.example' });
    const first = await exchange(await grantAssertion());
    assert.equal(first.status, 200, JSON.stringify(first.body));
    assert.equal(decodeJwt(first.body.access_token).client_id, owner.client_id);
    const other = await exchange(await grantAssertion({ aud: 'https://second.example' }));
    assert.equal(other.status, 200, JSON.stringify(other.body));
    assert.equal(decodeJwt(other.body.access_token).client_id, second.client_id);
    assert.equal(other.body.scope, 'reports:read');
  });

  test('failed assertions are limited per issuer', async () => {
    const noisyIss = 'https://noisy.example';
    const noisy = await createClient(server, { name: 'noisy' });
    await addIssuer(server, { client_id: noisy.client_id, name: 'noisy', issuer: noisyIss, jwks_url: jwks.url, audience: AUD });
    const past = Math.floor(Date.now() / 1000) - 600;
    for (let i = 0; i < 50; i++) assertInvalidGrant(await exchange(await grantAssertion({ iss: noisyIss, iat: past - 60, exp: past })), /expired/);
    const res = await exchange(await grantAssertion({ iss: noisyIss }));
    assertInvalidGrant(res, /too many failed assertions/);
    assert.ok(Number(res.headers.get('retry-after')) > 0);
    assert.equal((await exchange(await grantAssertion())).status, 200, 'another issuer is not affected');
  });
});
