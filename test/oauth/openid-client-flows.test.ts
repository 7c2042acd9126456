/**
 * Proof with a strict relying party, continued: a registered
 * client drives the authorization code flow with PKCE through a real session cookie (POST /v1/login, the
 * Cookie header kept by hand, /authorize not followed but read), and openid-client validates the ID token
 * (signature via the JWKS, iss, aud, nonce, at_hash; OIDC Core section 3.1.3.7) and the callback (state, iss
 * per RFC 9207); then userinfo, refresh, revocation and introspection (RFC 7662) with that client's tokens,
 * and private_key_jwt client authentication (RFC 7523 section 2.2) of the code exchange with a key whose JWKS
 * the test serves on loopback and registers as the client's trusted issuer. On SQLite and PostgreSQL.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as client from 'openid-client';
import { createServer, type Server } from 'node:http';
import { decodeJwt, exportJWK, generateKeyPair } from 'jose';
import type { TestServer } from '../support/app.ts';
import { adminClient } from '../support/admin-client.ts';
import { createTestDatabase, type TestDatabase, type TestDatabaseKind } from '../support/databases.ts';
import { registerClient, signUpAndLogIn, startOidcServer } from '../support/oidc-server.ts';
import { LOOPBACK_JWKS_FLAG } from './trusted-issuer-fixture.ts';

const KINDS: TestDatabaseKind[] = ['sqlite', 'postgres'];
const CALLBACK = 'http://127.0.0.1:3999/callback';

for (const kind of KINDS) {
  describe(`openid-client 6, registered client flows (${kind})`, () => {
    let db: TestDatabase;
    let server: TestServer;
    let rp: client.Configuration;
    let clientId: string;

    before(async () => {
      db = await createTestDatabase(kind);
      server = await startOidcServer([...db.flags, LOOPBACK_JWKS_FLAG]);
      const registered = await registerClient(server, { name: 'Strict RP', redirect_uris: [CALLBACK]});
      clientId = registered.clientId;
      rp = await client.discovery(new URL(server.baseUrl), clientId, undefined, client.ClientSecretBasic(registered.secret), {
        execute: [client.allowInsecureRequests],
      });
    });
    let jwksServer: Server | undefined;
    after(async () => {
      if (jwksServer) await new Promise((resolve) => jwksServer!.close(resolve));
      await server?.close();
      await db?.cleanup();
    });

    /** The code flow through the browser's session cookie; answers the validated token response. */
    async function codeFlow(cookie: string, scope: string, relyingParty: client.Configuration = rp) {
      const pkceCodeVerifier = client.randomPKCECodeVerifier();
      const expectedState = client.randomState();
      const expectedNonce = client.randomNonce();
      const url = client.buildAuthorizationUrl(relyingParty, {
        redirect_uri: CALLBACK,
        scope,
        code_challenge: await client.calculatePKCECodeChallenge(pkceCodeVerifier),
        code_challenge_method: 'S256',
        state: expectedState,
        nonce: expectedNonce,
      });
      const res = await fetch(url, { redirect: 'manual', headers: { cookie } });
      assert.equal(res.status, 302, `authorize answered ${res.status}: ${await res.clone().text()}`);
      const callback = new URL(res.headers.get('location')!);
      assert.equal(`${callback.origin}${callback.pathname}`, CALLBACK, 'the browser goes to the registered redirect_uri');
      const tokens = await client.authorizationCodeGrant(relyingParty, callback, { pkceCodeVerifier, expectedState, expectedNonce, idTokenExpected: true });
      return { tokens, expectedNonce };
    }

    test('authorization code with PKCE through a real session cookie; the ID token passes openid-client\'s checks', async () => {
      const browser = await signUpAndLogIn(server);
      const { tokens, expectedNonce } = await codeFlow(browser.cookie, 'openid email profile');
      const claims = tokens.claims()!;
      assert.equal(claims.iss, server.baseUrl);
      assert.equal(claims.sub, browser.userId);
      assert.equal(claims.aud, clientId);
      assert.equal(claims.nonce, expectedNonce);
      assert.equal(typeof claims.at_hash, 'string', 'at_hash is present (openid-client compared it with the access token)');
      assert.equal(decodeJwt(tokens.access_token).client_id, clientId);
    });

    test('userinfo with the code flow\'s access token', async () => {
      const browser = await signUpAndLogIn(server);
      const { tokens } = await codeFlow(browser.cookie, 'openid email profile');
      const info = await client.fetchUserInfo(rp, tokens.access_token, tokens.claims()!.sub);
      assert.equal(info.sub, browser.userId);
      assert.equal(info.email, browser.email);
    });

    test('refresh and revocation with the registered client\'s offline_access tokens', async () => {
      const browser = await signUpAndLogIn(server);
      const { tokens } = await codeFlow(browser.cookie, 'openid email offline_access');
      assert.ok(tokens.refresh_token, 'offline_access gives a refresh token');
      const refreshed = await client.refreshTokenGrant(rp, tokens.refresh_token!);
      assert.equal(refreshed.claims()!.aud, clientId, 'refreshed tokens are still the client\'s');
      assert.equal(refreshed.claims()!.sub, browser.userId);
      await client.tokenRevocation(rp, refreshed.refresh_token!);
      await assert.rejects(client.refreshTokenGrant(rp, refreshed.refresh_token!), (err: unknown) =>
        err instanceof client.ResponseBodyError && err.error === 'invalid_grant');
    });

    test('introspection: tokenIntrospection says active for a live access token and not after logout', async () => {
      const browser = await signUpAndLogIn(server);
      const { tokens } = await codeFlow(browser.cookie, 'openid email');
      const live = await client.tokenIntrospection(rp, tokens.access_token);
      assert.equal(live.active, true);
      assert.equal(live.sub, browser.userId);
      assert.equal(live.client_id, clientId);
      const logout = await fetch(client.buildEndSessionUrl(rp, { id_token_hint: tokens.id_token! }), { redirect: 'manual', headers: { cookie: browser.cookie } });
      assert.equal(logout.status, 200, 'signed out (no redirect asked for)');
      const ended = await client.tokenIntrospection(rp, tokens.access_token);
      assert.equal(ended.active, false);
    });

    test('private_key_jwt: a client authenticates with an assertion signed by its trusted issuer\'s key', async () => {
      const { publicKey, privateKey } = await generateKeyPair('ES256', { extractable: true });
      const kid = 'rp-key-1';
      const jwks = JSON.stringify({ keys: [{ ...(await exportJWK(publicKey)), kid, alg: 'ES256', use: 'sig' }] });
      jwksServer = createServer((_request, response) => response.writeHead(200, { 'content-type': 'application/json' }).end(jwks));
      await new Promise<void>((resolve) => jwksServer!.listen(0, '127.0.0.1', resolve));
      const jwksUrl = `http://127.0.0.1:${(jwksServer.address() as { port: number }).port}/jwks.json`;
      const machine = await registerClient(server, { name: 'Key-holding RP', redirect_uris: [CALLBACK] });
      await adminClient(server).ok('add_trusted_issuer', { client_id: machine.clientId, name: 'RP key', issuer: machine.clientId, jwks_url: jwksUrl });
      assert.ok((rp.serverMetadata().token_endpoint_auth_methods_supported ?? []).includes('private_key_jwt'), 'advertised');
      const machineRp = new client.Configuration(rp.serverMetadata(), machine.clientId, undefined, client.PrivateKeyJwt({ key: privateKey, kid }));
      client.allowInsecureRequests(machineRp);
      // The code exchange at /oauth/token is authenticated by the assertion alone (no secret is sent).
      const browser = await signUpAndLogIn(server);
      const { tokens } = await codeFlow(browser.cookie, 'openid email', machineRp);
      assert.equal(tokens.claims()!.aud, machine.clientId);
      assert.equal(decodeJwt(tokens.access_token).client_id, machine.clientId);
      const stranger = await generateKeyPair('ES256', { extractable: true });
      const forged = new client.Configuration(rp.serverMetadata(), machine.clientId, undefined, client.PrivateKeyJwt({ key: stranger.privateKey, kid }));
      client.allowInsecureRequests(forged);
      await assert.rejects(codeFlow(browser.cookie, 'openid email', forged), (err: unknown) =>
        err instanceof client.ResponseBodyError && err.error === 'invalid_client', 'a key outside the JWKS is refused');
    });
  });
}
