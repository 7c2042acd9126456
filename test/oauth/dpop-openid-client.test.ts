/**
 * DPoP with a strict relying party (RFC 9449): openid-client 6's getDPoPHandle, with a key it generates,
 * drives the authorization code flow (dpop_jkt on the authorization URL, section 10; the proof at the
 * token endpoint, section 5), checks token_type DPoP, calls /userinfo with fetchUserInfo (the DPoP scheme
 * and a proof with ath, section 7), refreshes (the public-client rule does not apply: the client is
 * confidential), and gets a client_credentials token bound the same way. On SQLite and PostgreSQL, over a
 * real server that knows its own URL (the htu of every proof).
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as client from 'openid-client';
import { calculateJwkThumbprint, decodeJwt, exportJWK } from 'jose';
import type { TestServer } from '../support/app.ts';
import { createTestDatabase, type TestDatabase, type TestDatabaseKind } from '../support/databases.ts';
import { registerClient, signUpAndLogIn, startOidcServer } from '../support/oidc-server.ts';

const KINDS: TestDatabaseKind[] = ['sqlite', 'postgres'];
const CALLBACK = 'http://127.0.0.1:3999/callback';

for (const kind of KINDS) {
  describe(`openid-client 6 with DPoP (${kind})`, () => {
    let db: TestDatabase;
    let server: TestServer;
    let rp: client.Configuration;

    before(async () => {
      db = await createTestDatabase(kind);
      server = await startOidcServer(db.flags);
      const registered = await registerClient(server, { name: 'DPoP RP', redirect_uris: [CALLBACK], allowed_scopes: ['api:read'] });
      rp = await client.discovery(new URL(server.baseUrl), registered.clientId, undefined, client.ClientSecretBasic(registered.secret), {
        execute: [client.allowInsecureRequests],
      });
    });
    after(async () => {
      await server?.close();
      await db?.cleanup();
    });

    test('the code flow with getDPoPHandle gives DPoP-bound tokens, and fetchUserInfo uses them', async () => {
      assert.ok((rp.serverMetadata().dpop_signing_alg_values_supported ?? []).includes('ES256'), 'discovery advertises DPoP');
      const keyPair = await client.randomDPoPKeyPair('ES256');
      const dpop = client.getDPoPHandle(rp, keyPair);
      const jkt = await calculateJwkThumbprint(await exportJWK(keyPair.publicKey), 'sha256');
      const browser = await signUpAndLogIn(server);
      const pkceCodeVerifier = client.randomPKCECodeVerifier();
      const expectedState = client.randomState();
      const url = client.buildAuthorizationUrl(rp, {
        redirect_uri: CALLBACK, scope: 'openid email offline_access', state: expectedState, dpop_jkt: jkt,
        code_challenge: await client.calculatePKCECodeChallenge(pkceCodeVerifier), code_challenge_method: 'S256',
      });
      const res = await fetch(url, { redirect: 'manual', headers: { cookie: browser.cookie } });
      assert.equal(res.status, 302, await res.clone().text());
      const tokens = await client.authorizationCodeGrant(rp, new URL(res.headers.get('location')!), { pkceCodeVerifier, expectedState }, undefined, { DPoP: dpop });
      assert.equal(tokens.token_type, 'dpop');
      assert.deepEqual(decodeJwt(tokens.access_token).cnf, { jkt });
      const info = await client.fetchUserInfo(rp, tokens.access_token, tokens.claims()!.sub, { DPoP: dpop });
      assert.equal(info.sub, browser.userId);
      assert.equal(info.email, browser.email);
      // The same token without the handle goes as Bearer, which the server refuses for a bound token.
      await assert.rejects(client.fetchUserInfo(rp, tokens.access_token, client.skipSubjectCheck), (err: unknown) =>
        err instanceof client.WWWAuthenticateChallengeError && err.cause.some((challenge) => challenge.scheme === 'dpop' && challenge.parameters.error === 'invalid_token'));
      const refreshed = await client.refreshTokenGrant(rp, tokens.refresh_token!, undefined, { DPoP: dpop });
      assert.equal(refreshed.token_type, 'dpop');
      assert.deepEqual(decodeJwt(refreshed.access_token).cnf, { jkt });
      const again = await client.fetchUserInfo(rp, refreshed.access_token, browser.userId, { DPoP: dpop });
      assert.equal(again.sub, browser.userId);
    });

    test('clientCredentialsGrant with getDPoPHandle gives a bound client token, introspected with its cnf', async () => {
      const keyPair = await client.randomDPoPKeyPair('EdDSA');
      const dpop = client.getDPoPHandle(rp, keyPair);
      const granted = await client.clientCredentialsGrant(rp, { scope: 'api:read' }, { DPoP: dpop });
      assert.equal(granted.token_type, 'dpop');
      const jkt = await calculateJwkThumbprint(await exportJWK(keyPair.publicKey), 'sha256');
      assert.deepEqual(decodeJwt(granted.access_token).cnf, { jkt });
      const introspected = await client.tokenIntrospection(rp, granted.access_token);
      assert.equal(introspected.active, true);
      assert.deepEqual(introspected.cnf, { jkt });
      assert.equal(introspected.token_type, 'DPoP');
    });
  });
}
