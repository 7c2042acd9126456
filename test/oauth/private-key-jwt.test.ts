/**
 * private_key_jwt client authentication at POST /oauth/token (RFC 7523 sections 2.2 and 3; OpenID Connect
 * Core section 9) against a real JWKS served over loopback HTTP: success (by the token endpoint URL and by
 * the issuer URL as aud), a replayed jti, wrong aud, expired, exp too far ahead, HS256 and none refused, an
 * inactive issuer, an inactive client, a key not in the JWKS, key rotation refetching the JWKS, iss/sub
 * mismatches, and the failure limit. An authenticated client reaches the grant (here jwt-bearer without an
 * assertion: invalid_request); a refused one gets 401 invalid_client.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { SignJWT, UnsecuredJWT } from 'jose';
import { startServer, type TestServer } from '../support/app.ts';
import { TestClock } from '../support/test-clock.ts';
import { authenticateByAssertion } from '../../server/modules/oauth/index.ts';
import { CLIENT_ASSERTION_TYPE, JWT_BEARER, JwksServer, LOOPBACK_JWKS_FLAG, TOKEN_ENDPOINT_AUD, addIssuer, createClient, newSigningKey, signAssertion, tokenRequest, type SigningKey } from './trusted-issuer-fixture.ts';
import { adminClient } from '../support/admin-client.ts';

describe('private_key_jwt client authentication', () => {
  let server: TestServer;
  let jwks: JwksServer;
  let key: SigningKey;
  let client: any;
  let issuer: any;
  const clock = new TestClock();

  before(async () => {
    server = await startServer([LOOPBACK_JWKS_FLAG], { clock });
    jwks = await new JwksServer().start();
    key = await newSigningKey('ES256');
    jwks.keys = [key.publicJwk];
    client = await createClient(server);
    issuer = await addIssuer(server, { client_id: client.client_id, name: 'workload keys', issuer: 'https://workload.example', jwks_url: jwks.url });
  });
  after(async () => {
    await jwks?.close();
    await server?.close();
  });

  const assertionFor = (claims: Record<string, unknown> = {}, signingKey = key) =>
    signAssertion(signingKey, { iss: client.client_id, sub: client.client_id, aud: TOKEN_ENDPOINT_AUD, ...claims });

  /** The token endpoint with this client assertion and no grant assertion: past authentication it is invalid_request. */
  const authenticate = (clientAssertion: string, extra: Record<string, string> = {}) =>
    tokenRequest(server, { grant_type: JWT_BEARER, client_assertion_type: CLIENT_ASSERTION_TYPE, client_assertion: clientAssertion, ...extra });

  function assertAuthenticated(res: { status: number; body: any }) {
    assert.equal(res.status, 400, JSON.stringify(res.body));
    assert.equal(res.body.error, 'invalid_request');
    assert.equal(res.body.error_description, 'assertion is required');
  }

  function assertRefused(res: { status: number; body: any }, description: RegExp) {
    assert.equal(res.status, 401, JSON.stringify(res.body));
    assert.equal(res.body.error, 'invalid_client');
    assert.match(res.body.error_description, description);
  }

  test('a signed assertion authenticates the registered client, by the function and over HTTP', async () => {
    const check = await authenticateByAssertion(server.app.deps, await assertionFor(), client.client_id);
    assert.equal(check.ok, true, JSON.stringify(check));
    if (check.ok) {
      assert.equal(check.client.clientId, client.client_id);
      assert.equal(check.client.method, 'private_key_jwt');
      assert.equal(check.client.registered?.clientId, client.client_id);
    }
    assertAuthenticated(await authenticate(await assertionFor(), { client_id: client.client_id }));
  });

  test('the issuer identifier is accepted as aud (OpenID Connect Core section 9)', async () => {
    assertAuthenticated(await authenticate(await assertionFor({ aud: 'http://127.0.0.1:8080' })));
    assertAuthenticated(await authenticate(await assertionFor({ aud: ['https://elsewhere.example', TOKEN_ENDPOINT_AUD] })));
  });

  test('a replayed assertion is invalid_client', async () => {
    const once = await assertionFor();
    assertAuthenticated(await authenticate(once));
    assertRefused(await authenticate(once), /already used/);
  });

  test('a wrong aud, an expired assertion and one living too long are refused', async () => {
    assertRefused(await authenticate(await assertionFor({ aud: 'https://other-server.example/oauth/token' })), /aud/);
    const past = Math.floor(Date.now() / 1000) - 600;
    assertRefused(await authenticate(await assertionFor({ iat: past - 60, exp: past })), /expired/);
    assertRefused(await authenticate(await assertionFor({ exp: Math.floor(Date.now() / 1000) + 3600 })), /too far ahead/);
  });

  test('missing jti or exp, and iss/sub other than the client, are refused', async () => {
    const now = Math.floor(Date.now() / 1000);
    const noJti = await new SignJWT({ iss: client.client_id, sub: client.client_id, aud: TOKEN_ENDPOINT_AUD, iat: now, exp: now + 60 })
      .setProtectedHeader({ alg: key.alg, kid: key.kid }).sign(key.privateKey);
    assertRefused(await authenticate(noJti), /jti/);
    const noExp = await new SignJWT({ iss: client.client_id, sub: client.client_id, aud: TOKEN_ENDPOINT_AUD, jti: randomUUID() })
      .setProtectedHeader({ alg: key.alg, kid: key.kid }).sign(key.privateKey);
    assertRefused(await authenticate(noExp), /exp/);
    assertRefused(await authenticate(await assertionFor({ sub: 'someone-else' })), /sub/);
    assertRefused(await authenticate(await assertionFor(), { client_id: 'another-client' }), /differs/);
  });

  test('HS256 (keyed with anything public) and alg none are refused before any key is looked up', async () => {
    const now = Math.floor(Date.now() / 1000);
    const claims = { iss: client.client_id, sub: client.client_id, aud: TOKEN_ENDPOINT_AUD, iat: now, exp: now + 60, jti: randomUUID() };
    const hs = await new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).sign(new TextEncoder().encode(client.client_id.padEnd(32, 'x')));
    assertRefused(await authenticate(hs), /asymmetric/);
    const none = new UnsecuredJWT(claims).encode();
    assertRefused(await authenticate(none), /asymmetric/);
  });

  test('a key that is not in the JWKS is refused; a rotated key is found by refetching the JWKS', async () => {
    const stranger = await newSigningKey('ES256');
    assertRefused(await authenticate(await assertionFor({}, stranger)), /no key|signature/);
    // Same kid as the published key, other key material: the signature check refuses it.
    const forged = { ...stranger, kid: key.kid };
    assertRefused(await authenticate(await assertionFor({}, forged)), /signature/);
    // A key published after the cache filled: an unknown kid refetches (at most once a minute per URL).
    const rotated = await newSigningKey('RS256');
    jwks.keys = [key.publicJwk, rotated.publicJwk];
    const before = jwks.fetches;
    // Within a minute of the last fetch an unknown kid does not make the server ask the issuer again.
    assertRefused(await authenticate(await assertionFor({}, rotated)), /no key/);
    assert.equal(jwks.fetches, before, 'no refetch within the minute');
    clock.advance(61);
    try {
      const now = Math.floor(clock.now().getTime() / 1000);
      assertAuthenticated(await authenticate(await assertionFor({ iat: now, exp: now + 60 }, rotated)));
      assert.equal(jwks.fetches, before + 1, 'one refetch for the new kid');
      // The new kid is now cached: no further fetch.
      assertAuthenticated(await authenticate(await assertionFor({ iat: now, exp: now + 60 }, rotated)));
      assert.equal(jwks.fetches, before + 1);
    } finally {
      clock.advance(-61);
    }
  });

  test('an inactive issuer, and an inactive client, cannot authenticate', async () => {
    await adminClient(server).call('update_trusted_issuer', { id: issuer.id, is_active: false });
    assertRefused(await authenticate(await assertionFor()), /no active client with an active trusted issuer/);
    await adminClient(server).call('update_trusted_issuer', { id: issuer.id, is_active: true });
    assertAuthenticated(await authenticate(await assertionFor()));
    await adminClient(server).call('update_client', { id: client.id, is_active: false });
    assertRefused(await authenticate(await assertionFor()), /no active client with an active trusted issuer/);
    await adminClient(server).call('update_client', { id: client.id, is_active: true });
  });

  test('an unknown client_id is refused like an inactive one', async () => {
    const now = Math.floor(Date.now() / 1000);
    const unknown = await signAssertion(key, { iss: 'no-such-client', sub: 'no-such-client', aud: TOKEN_ENDPOINT_AUD, exp: now + 60 });
    assertRefused(await authenticate(unknown), /no active client with an active trusted issuer/);
  });

  test('failed assertions are limited per client_id (client_assertion_failure bucket)', async () => {
    const victim = await createClient(server, { name: 'limited' });
    await addIssuer(server, { client_id: victim.client_id, name: 'limited keys', issuer: 'https://limited.example', jwks_url: jwks.url });
    const bad = () => signAssertion(key, { iss: victim.client_id, sub: victim.client_id, aud: 'https://wrong.example' });
    for (let i = 0; i < 50; i++) assertRefused(await authenticate(await bad()), /aud/);
    const good = await signAssertion(key, { iss: victim.client_id, sub: victim.client_id, aud: TOKEN_ENDPOINT_AUD });
    assertRefused(await authenticate(good), /too many failed client assertions/);
    // Another client is not affected.
    assertAuthenticated(await authenticate(await assertionFor()));
  });

  test('discovery advertises private_key_jwt with asymmetric signing algorithms', async () => {
    const res = await fetch(`${server.baseUrl}/.well-known/openid-configuration`);
    const doc = await res.json();
    assert.ok(doc.token_endpoint_auth_methods_supported.includes('private_key_jwt'));
    assert.ok(doc.token_endpoint_auth_signing_alg_values_supported.includes('ES256'));
    assert.ok(!doc.token_endpoint_auth_signing_alg_values_supported.some((alg: string) => alg.startsWith('HS') || alg === 'none'));
    assert.ok(doc.grant_types_supported.includes(JWT_BEARER));
  });
});
