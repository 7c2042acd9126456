/**
 * Resource indicators (RFC 8707) and the recipe of docs/protect-an-mcp-server.md: a client registered with
 * allowed_resources asks /authorize (directly or pushed, RFC 9126) and the token endpoint for a token for one
 * resource; the access token's aud names it (the ID token's stays the client); an unregistered or malformed
 * resource is invalid_target; the code exchange and a refresh may only repeat the granted resource;
 * client_credentials takes one too. validate_jwt_token checks the audience a resource server names, and
 * introspection answers aud. A tiny resource server publishes its RFC 9728 metadata, answers 401 with the
 * resource_metadata challenge, and accepts the token by verifying it against the JWKS with its own URI as the
 * expected audience, as the recipe says. On SQLite, PostgreSQL and MariaDB.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import * as client from 'openid-client';
import { createRemoteJWKSet, decodeJwt, jwtVerify } from 'jose';
import type { TestServer } from '../support/app.ts';
import { adminClient } from '../support/admin-client.ts';
import { createTestDatabase, type TestDatabase, type TestDatabaseKind } from '../support/databases.ts';
import { registerClient, signUpAndLogIn, startOidcServer } from '../support/oidc-server.ts';
import { basicAuth } from './authorize-support.ts';

const KINDS: TestDatabaseKind[] = ['sqlite', 'postgres', 'mariadb'];
const CALLBACK = 'http://127.0.0.1:3999/callback';
const OTHER_RESOURCE = 'https://other.example.test/api';

/**
 * A resource server as docs/protect-an-mcp-server.md describes it: RFC 9728 metadata naming the
 * authorization server, 401 with WWW-Authenticate resource_metadata without a token, and a bearer token
 * accepted only when its signature (JWKS), issuer, expiry and aud (its own URI) check out.
 */
async function startResourceServer(issuer: string): Promise<{ server: Server; resource: string; url: string }> {
  const jwks = createRemoteJWKSet(new URL(`${issuer}/.well-known/jwks.json`));
  const server = createServer(async (req, res) => {
    const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    const resource = `${base}/mcp`;
    if (req.url === '/.well-known/oauth-protected-resource/mcp') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ resource, authorization_servers: [issuer], bearer_methods_supported: ['header'], scopes_supported: ['openid'] }));
      return;
    }
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    const challenge = `Bearer resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"`;
    if (!token) {
      res.writeHead(401, { 'www-authenticate': challenge }).end();
      return;
    }
    try {
      const { payload } = await jwtVerify(token, jwks, { issuer, audience: resource });
      if (payload.token_type !== 'access_token') throw new Error('not an access token');
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ sub: payload.sub }));
    } catch {
      res.writeHead(401, { 'www-authenticate': `${challenge}, error="invalid_token"` }).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  return { server, resource: `${base}/mcp`, url: `${base}/mcp` };
}

for (const kind of KINDS) {
  describe(`resource indicators, RFC 8707 (${kind})`, () => {
    let db: TestDatabase;
    let server: TestServer;
    let rs: Awaited<ReturnType<typeof startResourceServer>>;
    let registered: { id: string; clientId: string; secret: string };
    let rp: client.Configuration;

    before(async () => {
      db = await createTestDatabase(kind);
      server = await startOidcServer(db.flags);
      rs = await startResourceServer(server.baseUrl);
      registered = await registerClient(server, {
        name: 'MCP client', redirect_uris: [CALLBACK], allowed_resources: [rs.resource],
        allowed_scopes: ['openid', 'email', 'profile', 'offline_access'],
      });
      rp = await client.discovery(new URL(server.baseUrl), registered.clientId, undefined, client.ClientSecretBasic(registered.secret), {
        execute: [client.allowInsecureRequests],
      });
    });
    after(async () => {
      await new Promise((resolve) => rs?.server.close(resolve));
      await server?.close();
      await db?.cleanup();
    });

    async function codeFlow(cookie: string, extra: Record<string, string>, pushed = false) {
      const pkceCodeVerifier = client.randomPKCECodeVerifier();
      const expectedState = client.randomState();
      const params = {
        redirect_uri: CALLBACK, scope: 'openid email offline_access', state: expectedState,
        code_challenge: await client.calculatePKCECodeChallenge(pkceCodeVerifier), code_challenge_method: 'S256', ...extra,
      };
      const url = pushed ? await client.buildAuthorizationUrlWithPAR(rp, params) : client.buildAuthorizationUrl(rp, params);
      const res = await fetch(url, { redirect: 'manual', headers: { cookie } });
      assert.equal(res.status, 302, await res.clone().text());
      return { callback: new URL(res.headers.get('location')!), pkceCodeVerifier, expectedState };
    }

    async function tokenRequest(fields: Record<string, string>) {
      const res = await fetch(`${server.baseUrl}/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...basicAuth(registered.clientId, registered.secret) },
        body: new URLSearchParams(fields).toString(),
      });
      return { status: res.status, body: (await res.json()) as Record<string, any> };
    }

    async function validate(token: string, audience?: string) {
      const res = await fetch(`${server.baseUrl}/v1/validate_jwt_token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: server.baseUrl },
        body: JSON.stringify({ token_type: 'access_token', token, ...(audience ? { audience } : {}) }),
      });
      return res.status === 200 && ((await res.json()) as { is_valid?: boolean }).is_valid === true;
    }

    test('allowed_resources: registered and read back; a fragment or a relative reference is refused', async () => {
      const admin = adminClient(server);
      const read = await admin.ok('client', { id: registered.id });
      assert.deepEqual(read.allowed_resources, [rs.resource]);
      for (const bad of ['https://api.example.test/#frag', 'relative/path']) {
        const reply = await admin.call('create_client', { name: 'Bad', allowed_resources: [bad] });
        assert.equal(reply.status, 400, bad);
        assert.match(JSON.stringify(reply.body), /allowed_resources/);
      }
    });

    test('code flow with resource: the access token is for the resource, the ID token for the client; the resource server accepts it', async () => {
      const browser = await signUpAndLogIn(server);
      const { callback, pkceCodeVerifier, expectedState } = await codeFlow(browser.cookie, { resource: rs.resource });
      const tokens = await client.authorizationCodeGrant(rp, callback, { pkceCodeVerifier, expectedState, idTokenExpected: true });
      assert.deepEqual(decodeJwt(tokens.access_token).aud, [rs.resource, registered.clientId]);
      assert.equal(tokens.claims()!.aud, registered.clientId, 'openid-client checked the ID token for its client');

      const unauthenticated = await fetch(rs.url);
      assert.equal(unauthenticated.status, 401);
      assert.match(unauthenticated.headers.get('www-authenticate')!, /resource_metadata="http:\/\/127\.0\.0\.1:\d+\/\.well-known\/oauth-protected-resource\/mcp"/);
      const metadata = await (await fetch(`${new URL(rs.url).origin}/.well-known/oauth-protected-resource/mcp`)).json() as Record<string, any>;
      assert.deepEqual(metadata.authorization_servers, [server.baseUrl]);
      const served = await fetch(rs.url, { headers: { authorization: `Bearer ${tokens.access_token}` } });
      assert.equal(served.status, 200);
      assert.equal(((await served.json()) as { sub: string }).sub, browser.userId);

      assert.equal(await validate(tokens.access_token, rs.resource), true, 'validate_jwt_token with the resource as audience');
      assert.equal(await validate(tokens.access_token, OTHER_RESOURCE), false, 'another audience is refused');
      const introspected = await client.tokenIntrospection(rp, tokens.access_token);
      assert.equal(introspected.active, true);
      assert.deepEqual(introspected.aud, [rs.resource, registered.clientId]);

      // RFC 8707 section 2.2: the refresh keeps the resource; naming another is invalid_target.
      const refused = await tokenRequest({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token!, resource: OTHER_RESOURCE });
      assert.equal(refused.status, 400);
      assert.equal(refused.body.error, 'invalid_target');
      const refreshed = await tokenRequest({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token!, resource: rs.resource });
      assert.equal(refreshed.status, 200, JSON.stringify(refreshed.body));
      assert.deepEqual(decodeJwt(refreshed.body.access_token).aud, [rs.resource, registered.clientId]);
    });

    test('a token without a resource is refused by the resource server and by validate with its audience', async () => {
      const browser = await signUpAndLogIn(server);
      const { callback, pkceCodeVerifier, expectedState } = await codeFlow(browser.cookie, {});
      const tokens = await client.authorizationCodeGrant(rp, callback, { pkceCodeVerifier, expectedState });
      assert.equal(decodeJwt(tokens.access_token).aud, registered.clientId);
      assert.equal((await fetch(rs.url, { headers: { authorization: `Bearer ${tokens.access_token}` } })).status, 401);
      assert.equal(await validate(tokens.access_token, rs.resource), false);
      assert.equal(await validate(tokens.access_token), true, 'without an audience, validate answers as before');
    });

    test('pushed (RFC 9126) with resource: same audience', async () => {
      const browser = await signUpAndLogIn(server);
      const { callback, pkceCodeVerifier, expectedState } = await codeFlow(browser.cookie, { resource: rs.resource }, true);
      const tokens = await client.authorizationCodeGrant(rp, callback, { pkceCodeVerifier, expectedState });
      assert.deepEqual(decodeJwt(tokens.access_token).aud, [rs.resource, registered.clientId]);
    });

    test('an unregistered resource is invalid_target at /authorize, at the push and at the code exchange', async () => {
      const browser = await signUpAndLogIn(server);
      const { callback } = await codeFlow(browser.cookie, { resource: OTHER_RESOURCE });
      assert.equal(callback.searchParams.get('error'), 'invalid_target');
      assert.equal(callback.searchParams.get('code'), null);
      const fragment = await codeFlow(browser.cookie, { resource: `${rs.resource}#x` });
      assert.equal(fragment.callback.searchParams.get('error'), 'invalid_target');
      await assert.rejects(codeFlow(browser.cookie, { resource: OTHER_RESOURCE }, true), (err: unknown) =>
        err instanceof client.ResponseBodyError && err.error === 'invalid_target');

      const granted = await codeFlow(browser.cookie, { resource: rs.resource });
      const exchange = await tokenRequest({
        grant_type: 'authorization_code', code: granted.callback.searchParams.get('code')!, redirect_uri: CALLBACK,
        code_verifier: granted.pkceCodeVerifier, resource: OTHER_RESOURCE,
      });
      assert.equal(exchange.status, 400);
      assert.equal(exchange.body.error, 'invalid_target');
    });

    test('client_credentials with resource: aud names it; an unregistered one is invalid_target', async () => {
      const issued = await tokenRequest({ grant_type: 'client_credentials', scope: 'openid', resource: rs.resource });
      assert.equal(issued.status, 200, JSON.stringify(issued.body));
      assert.deepEqual(decodeJwt(issued.body.access_token).aud, [rs.resource, registered.clientId]);
      assert.equal((await fetch(rs.url, { headers: { authorization: `Bearer ${issued.body.access_token}` } })).status, 200);
      const refused = await tokenRequest({ grant_type: 'client_credentials', resource: OTHER_RESOURCE });
      assert.equal(refused.status, 400);
      assert.equal(refused.body.error, 'invalid_target');
    });
  });
}
