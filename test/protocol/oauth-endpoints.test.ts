/**
 * POST /oauth/token (refresh_token grant) and POST /oauth/revoke over real HTTP (docs/api-overview.md#http-endpoints-outside-v1;
 * docs/sdk-compatibility.md): JSON, form-urlencoded and the client SDK's own requests, no Origin header
 * needed, RFC 6749 section 5.1 answers and section 5.2 errors, rotation and reuse detection end to end.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { decodeJwt } from 'jose';
import { Authorizer } from '@authorizerdev/authorizer-js';
import { startServer, CLIENT_ID, CLIENT_SECRET, type TestServer } from '../support/app.ts';
import { createUser, handlerContext, login } from '../tokens/support.ts';
import { validateToken } from '../../server/modules/tokens/index.ts';

const OFFLINE = { scope: ['openid', 'email', 'profile', 'offline_access'] };

describe('OAuth token and revocation endpoints', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer();
  });
  after(() => server.close());

  const freshRefreshToken = async () => {
    const user = await createUser(server.app);
    return (await login(server.app, user, OFFLINE)).tokens;
  };
  const postJson = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${server.baseUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  const postForm = (path: string, fields: Record<string, string>, headers: Record<string, string> = {}) =>
    fetch(`${server.baseUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      body: new URLSearchParams(fields).toString(),
    });
  const accessIsValid = (token: string) =>
    validateToken(handlerContext(server.app, server.app.deps.storage.fork()), token, 'access_token').then(() => true, () => false);

  async function expectOAuthError(res: Response, status: number, error: string): Promise<string> {
    assert.equal(res.status, status);
    const body = (await res.json()) as { error: string; error_description: string };
    assert.equal(body.error, error);
    assert.equal(typeof body.error_description, 'string');
    assert.equal(res.headers.get('cache-control'), 'no-store');
    return body.error_description;
  }

  test('refresh grant with a JSON body and no Origin answers an RFC 6749 token response', async () => {
    const tokens = await freshRefreshToken();
    const res = await postJson('/oauth/token', { grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: CLIENT_ID });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('cache-control'), 'no-store');
    const body = (await res.json()) as Record<string, unknown>;
    assert.deepEqual(Object.keys(body).sort(), ['access_token', 'expires_in', 'id_token', 'refresh_token', 'scope', 'token_type']);
    assert.equal(body.token_type, 'Bearer');
    assert.equal(body.expires_in, 1800);
    assert.equal(body.scope, 'openid email profile offline_access');
    assert.notEqual(body.refresh_token, tokens.refresh_token);
    assert.equal(decodeJwt(String(body.access_token)).token_type, 'access_token');
    assert.equal(await accessIsValid(String(body.access_token)), true);
  });

  test('refresh grant with a form body, client credentials in the body or as HTTP Basic', async () => {
    const tokens = await freshRefreshToken();
    const viaPost = await postForm('/oauth/token', {
      grant_type: 'refresh_token', refresh_token: tokens.refresh_token!, client_id: CLIENT_ID, client_secret: CLIENT_SECRET, scope: 'openid email',
    });
    assert.equal(viaPost.status, 200);
    const first = (await viaPost.json()) as Record<string, string>;
    assert.equal(first.scope, 'openid email', 'a narrower scope may be asked for');
    const basic = `Basic ${Buffer.from(`${CLIENT_ID}:${CLIENT_SECRET}`).toString('base64')}`;
    const viaBasic = await postForm('/oauth/token', { grant_type: 'refresh_token', refresh_token: first.refresh_token! }, { authorization: basic });
    assert.equal(viaBasic.status, 200);
    assert.equal(((await viaBasic.json()) as Record<string, string>).scope, 'openid email profile offline_access');
  });

  test('the client SDK refreshes with getToken and revokes with revokeToken', async () => {
    const tokens = await freshRefreshToken();
    const sdk = new Authorizer({ authorizerURL: server.baseUrl, redirectURL: 'http://127.0.0.1:3000', clientID: CLIENT_ID });
    const got = await sdk.getToken({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token });
    assert.equal(got.errors.length, 0, JSON.stringify(got.errors));
    assert.equal(got.data?.expires_in, 1800);
    assert.ok(got.data?.refresh_token);
    const revoked = await sdk.revokeToken({ refresh_token: got.data!.refresh_token! });
    assert.equal(revoked.errors.length, 0);
    assert.equal(typeof revoked.data.message, 'string');
    assert.equal(await accessIsValid(got.data!.access_token), false, 'revocation reaches the access token of the family');
    const again = await sdk.getToken({ grant_type: 'refresh_token', refresh_token: got.data!.refresh_token! });
    assert.equal(again.errors.length, 1);
  });

  test('a JSON body sent as text/plain (fetch without a content type) is read as JSON', async () => {
    const tokens = await freshRefreshToken();
    const res = await fetch(`${server.baseUrl}/oauth/token`, {
      method: 'POST',
      body: JSON.stringify({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token }),
    });
    assert.equal(res.status, 200);
  });

  test('reuse of a rotated refresh token is invalid_grant and revokes the tokens of its family', async () => {
    const tokens = await freshRefreshToken();
    const first = await postJson('/oauth/token', { grant_type: 'refresh_token', refresh_token: tokens.refresh_token });
    const rotated = (await first.json()) as Record<string, string>;
    const reuse = await postJson('/oauth/token', { grant_type: 'refresh_token', refresh_token: tokens.refresh_token });
    assert.match(await expectOAuthError(reuse, 400, 'invalid_grant'), /already been used/);
    assert.equal(await accessIsValid(rotated.access_token!), false);
    const next = await postJson('/oauth/token', { grant_type: 'refresh_token', refresh_token: rotated.refresh_token });
    await expectOAuthError(next, 400, 'invalid_grant');
  });

  test('malformed and unsupported requests answer in the RFC 6749 section 5.2 shape', async () => {
    const tokens = await freshRefreshToken();
    await expectOAuthError(await postJson('/oauth/token', { grant_type: 'refresh_token' }), 400, 'invalid_request');
    await expectOAuthError(await postJson('/oauth/token', { grant_type: 'refresh_token', refresh_token: 'garbage' }), 400, 'invalid_grant');
    await expectOAuthError(await postJson('/oauth/token', { grant_type: 'refresh_token', refresh_token: tokens.access_token }), 400, 'invalid_grant');
    await expectOAuthError(await postJson('/oauth/token', { grant_type: 'password', username: 'a', password: 'b' }), 400, 'unsupported_grant_type');
    // No grant_type means authorization_code (docs/api-overview.md#http-endpoints-outside-v1); a verifier of one character is malformed
    // (RFC 7636 section 4.1: 43 to 128 characters).
    await expectOAuthError(await postJson('/oauth/token', { code: 'abc', code_verifier: 'x' }), 400, 'invalid_request');
    await expectOAuthError(
      await postJson('/oauth/token', { grant_type: 'refresh_token', refresh_token: tokens.refresh_token, scope: 'openid admin' }),
      400,
      'invalid_scope',
    );
    const badJson = await fetch(`${server.baseUrl}/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"grant_type":' });
    await expectOAuthError(badJson, 400, 'invalid_request');
    const get = await fetch(`${server.baseUrl}/oauth/token`);
    await expectOAuthError(get, 405, 'invalid_request');
    assert.equal(get.headers.get('allow'), 'POST');
    // The refresh token survived all the refusals above (scope was checked before rotation).
    const ok = await postJson('/oauth/token', { grant_type: 'refresh_token', refresh_token: tokens.refresh_token });
    assert.equal(ok.status, 200);
  });

  test('a wrong client_id or client_secret is invalid_client with 401', async () => {
    const tokens = await freshRefreshToken();
    const grant = { grant_type: 'refresh_token', refresh_token: tokens.refresh_token! };
    await expectOAuthError(await postJson('/oauth/token', { ...grant, client_id: 'someone-else' }), 401, 'invalid_client');
    await expectOAuthError(await postForm('/oauth/token', { ...grant, client_secret: 'wrong' }), 401, 'invalid_client');
    const basic = await postForm('/oauth/token', grant, { authorization: `Basic ${Buffer.from(`${CLIENT_ID}:wrong`).toString('base64')}` });
    await expectOAuthError(basic, 401, 'invalid_client');
    assert.match(basic.headers.get('www-authenticate') ?? '', /^Basic/);
    await expectOAuthError(await postJson('/oauth/revoke', { refresh_token: tokens.refresh_token, client_id: 'someone-else' }), 401, 'invalid_client');
    // Nothing was consumed by the refused calls.
    assert.equal((await postJson('/oauth/token', grant)).status, 200);
  });

  test('revocation with JSON or form answers 200 {message}, for unknown tokens too, and needs a token', async () => {
    const one = await freshRefreshToken();
    const two = await freshRefreshToken();
    const viaJson = await postJson('/oauth/revoke', { refresh_token: one.refresh_token, client_id: CLIENT_ID });
    assert.equal(viaJson.status, 200);
    assert.equal(typeof ((await viaJson.json()) as { message: string }).message, 'string');
    const viaForm = await postForm('/oauth/revoke', { token: two.refresh_token! });
    assert.equal(viaForm.status, 200);
    for (const tokens of [one, two]) {
      const res = await postJson('/oauth/token', { grant_type: 'refresh_token', refresh_token: tokens.refresh_token });
      await expectOAuthError(res, 400, 'invalid_grant');
      assert.equal(await accessIsValid(tokens.access_token), false);
    }
    assert.equal((await postJson('/oauth/revoke', { refresh_token: 'never-issued' })).status, 200);
    await expectOAuthError(await postJson('/oauth/revoke', {}), 400, 'invalid_request');
  });
});

describe('OAuth endpoints without gRPC', () => {
  test('are served when --enable-grpc=false (REST is off, the protocol endpoints are not)', async () => {
    const server = await startServer(['--enable-grpc=false']);
    try {
      const res = await fetch(`${server.baseUrl}/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
      assert.equal(res.status, 400);
      // The default authorization_code grant without a code.
      assert.equal(((await res.json()) as { error: string }).error, 'invalid_request');
      assert.equal((await fetch(`${server.baseUrl}/.well-known/jwks.json`)).status, 200);
    } finally {
      await server.close();
    }
  });
});
