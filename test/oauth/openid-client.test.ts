/**
 * Proof with a strict relying party: openid-client 6, which
 * checks every answer against the specifications, drives a real server over loopback HTTP on SQLite and on
 * PostgreSQL. Each case is one relying-party call: discovery (OpenID Connect Discovery 1.0 section 4),
 * userinfo (OIDC Core section 5.3), refresh with ID token validation (RFC 6749 section 6; OIDC Core section
 * 12.2: signature via the JWKS, iss, aud, sub unchanged), revocation (RFC 7009), and RP-initiated logout
 * (the end_session_endpoint URL openid-client builds). The server knows its own URL before it listens
 * (support/oidc-server.ts); openid-client refuses http issuers unless told (allowInsecureRequests).
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as client from 'openid-client';
import { CLIENT_ID, CLIENT_SECRET, type TestServer } from '../support/app.ts';
import { createTestDatabase, type TestDatabase, type TestDatabaseKind } from '../support/databases.ts';
import { signUpAndLogIn, startOidcServer } from '../support/oidc-server.ts';

const KINDS: TestDatabaseKind[] = ['sqlite', 'postgres'];
const OFFLINE = ['openid', 'email', 'profile', 'offline_access'];
const AFTER_LOGOUT = 'https://rp.example.test/after-logout';

for (const kind of KINDS) {
  describe(`openid-client 6 against the server (${kind})`, () => {
    let db: TestDatabase;
    let server: TestServer;
    let config: client.Configuration;

    before(async () => {
      db = await createTestDatabase(kind);
      server = await startOidcServer([...db.flags, '--redirect-uris', AFTER_LOGOUT]);
      config = await client.discovery(new URL(server.baseUrl), CLIENT_ID, undefined, client.ClientSecretBasic(CLIENT_SECRET), {
        execute: [client.allowInsecureRequests],
      });
    });
    after(async () => {
      await server?.close();
      await db?.cleanup();
    });

    test('discovery: the issuer is the URL asked for, and the endpoints are under it', () => {
      const metadata = config.serverMetadata();
      assert.equal(metadata.issuer, server.baseUrl);
      for (const [field, path] of [
        ['token_endpoint', '/oauth/token'], ['jwks_uri', '/.well-known/jwks.json'], ['userinfo_endpoint', '/userinfo'],
        ['revocation_endpoint', '/oauth/revoke'], ['end_session_endpoint', '/logout'],
      ] as const) {
        assert.equal(metadata[field], `${server.baseUrl}${path}`, field);
      }
      assert.deepEqual(metadata.id_token_signing_alg_values_supported, ['ES256']);
    });

    test('userinfo: fetchUserInfo answers the subject of the token, checked against the expected sub', async () => {
      const signedIn = await signUpAndLogIn(server);
      const info = await client.fetchUserInfo(config, signedIn.tokens.access_token, signedIn.userId);
      assert.equal(info.sub, signedIn.userId);
      assert.equal(info.email, signedIn.email);
      assert.equal(info.given_name, 'Grace');
      await assert.rejects(
        client.fetchUserInfo(config, signedIn.tokens.access_token, 'someone-else'),
        (err: Error) => /sub/.test(String((err.cause as Error | undefined)?.message)),
        'a userinfo answer for another subject is refused by the relying party',
      );
    });

    test('refresh: refreshTokenGrant rotates the refresh token and its ID token passes the strict checks', async () => {
      const signedIn = await signUpAndLogIn(server, OFFLINE);
      assert.ok(signedIn.tokens.refresh_token, 'offline_access gives a refresh token');
      const refreshed = await client.refreshTokenGrant(config, signedIn.tokens.refresh_token!);
      assert.equal(refreshed.token_type.toLowerCase(), 'bearer');
      assert.ok(refreshed.expires_in! > 0 && refreshed.expires_in! <= 1800, 'expires_in is seconds from now');
      assert.notEqual(refreshed.refresh_token, signedIn.tokens.refresh_token);
      const claims = refreshed.claims();
      assert.ok(claims, 'the refresh answer carries an ID token, validated by openid-client');
      assert.equal(claims.iss, server.baseUrl);
      assert.equal(claims.sub, signedIn.userId);
      assert.equal(claims.aud, CLIENT_ID);
      const info = await client.fetchUserInfo(config, refreshed.access_token, signedIn.userId);
      assert.equal(info.sub, signedIn.userId);
      await assert.rejects(client.refreshTokenGrant(config, signedIn.tokens.refresh_token!), (err: unknown) =>
        err instanceof client.ResponseBodyError && err.error === 'invalid_grant', 'the rotated token is refused');
    });

    test('revocation: tokenRevocation ends the refresh token, which refreshTokenGrant then refuses', async () => {
      const signedIn = await signUpAndLogIn(server, OFFLINE);
      await client.tokenRevocation(config, signedIn.tokens.refresh_token!, { token_type_hint: 'refresh_token' });
      await assert.rejects(client.refreshTokenGrant(config, signedIn.tokens.refresh_token!), (err: unknown) =>
        err instanceof client.ResponseBodyError && err.error === 'invalid_grant');
    });

    test('logout: the end_session URL openid-client builds ends the browser session and returns with state', async () => {
      const signedIn = await signUpAndLogIn(server);
      const url = client.buildEndSessionUrl(config, {
        id_token_hint: signedIn.tokens.id_token, post_logout_redirect_uri: AFTER_LOGOUT, state: 'bye-state',
      });
      const res = await fetch(url, { redirect: 'manual', headers: { cookie: signedIn.cookie } });
      assert.equal(res.status, 303);
      assert.equal(res.headers.get('location'), `${AFTER_LOGOUT}?state=bye-state`);
      await assert.rejects(client.fetchUserInfo(config, signedIn.tokens.access_token, signedIn.userId), (err: unknown) =>
        err instanceof client.WWWAuthenticateChallengeError && err.cause[0]?.parameters.error === 'invalid_token',
        'the session\'s access token is revoked with it');
    });
  });
}
