/**
 * Tokens issued to a registered client are bound to it. A refresh token is spent only by the client it was issued to (RFC 6749 section 6: "ensure that the refresh
 * token was issued to the authenticated client"). Tokens of a registered client carry it in azp: another
 * registered client, the instance client and an unauthenticated caller are refused with invalid_grant, and
 * the token stays usable by its own client (a refused attempt is not a reuse). Once the client is
 * deactivated, its tokens stop validating (validate_jwt_token, /userinfo) and it can no longer refresh.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { decodeJwt } from 'jose';
import { startServer, CLIENT_ID, CLIENT_SECRET, type TestServer } from '../support/app.ts';
import { adminClient } from '../support/admin-client.ts';
import {
  CALLBACK, authorize, basicAuth, codeFrom, createClient, pkcePair, signedInBrowser, tokenRequest, type RegisteredClient,
} from './authorize-support.ts';

describe('refresh tokens are bound to their client', () => {
  let server: TestServer;
  let clientA: RegisteredClient;
  let clientB: RegisteredClient;
  let refreshA: string;
  let accessA: string;
  before(async () => {
    server = await startServer(['--redirect-uris', CALLBACK]);
    clientA = await createClient(server, { name: 'A', redirect_uris: [CALLBACK], allowed_scopes: ['openid', 'offline_access'] });
    clientB = await createClient(server, { name: 'B', redirect_uris: [CALLBACK], allowed_scopes: ['openid', 'offline_access'] });
    const browser = await signedInBrowser(server);
    const { verifier, challenge } = pkcePair();
    const res = await authorize(server, {
      client_id: clientA.clientId, redirect_uri: CALLBACK, response_type: 'code', state: 's', code_challenge: challenge,
      code_challenge_method: 'S256', scope: 'openid offline_access',
    }, browser.cookie);
    const code = await codeFrom(res, 's');
    const token = await tokenRequest(server, { grant_type: 'authorization_code', code, code_verifier: verifier, redirect_uri: CALLBACK },
      basicAuth(clientA.clientId, clientA.secret));
    assert.equal(token.status, 200, JSON.stringify(token.body));
    refreshA = token.body.refresh_token;
    accessA = token.body.access_token;
    assert.equal(decodeJwt(refreshA).azp, clientA.clientId);
  });
  after(() => server.close());

  test('another registered client is refused', async () => {
    const res = await tokenRequest(server, { grant_type: 'refresh_token', refresh_token: refreshA }, basicAuth(clientB.clientId, clientB.secret));
    assert.equal(res.status, 400);
    assert.equal(res.body.error, 'invalid_grant');
  });

  test('the instance client, authenticated or public, is refused', async () => {
    const callers: Record<string, string>[] = [{ client_id: CLIENT_ID, client_secret: CLIENT_SECRET }, { client_id: CLIENT_ID }, {}];
    for (const fields of callers) {
      const res = await tokenRequest(server, { grant_type: 'refresh_token', refresh_token: refreshA, ...fields });
      assert.equal(res.status, 400, JSON.stringify(fields));
      assert.equal(res.body.error, 'invalid_grant');
    }
  });

  test('its own client still refreshes, and the new tokens are for it', async () => {
    const res = await tokenRequest(server, { grant_type: 'refresh_token', refresh_token: refreshA }, basicAuth(clientA.clientId, clientA.secret));
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(decodeJwt(res.body.access_token).client_id, clientA.clientId);
    assert.equal(decodeJwt(res.body.refresh_token).azp, clientA.clientId);
  });

  test('a deactivated client: its access token stops validating, /userinfo refuses it, refresh is refused', async () => {
    const validate = async () => {
      const res = await fetch(`${server.baseUrl}/v1/validate_jwt_token`, {
        method: 'POST', headers: { 'content-type': 'application/json', origin: server.baseUrl },
        body: JSON.stringify({ token_type: 'access_token', token: accessA }),
      });
      return { status: res.status, body: (await res.json()) as { is_valid?: boolean } };
    };
    const userinfo = async () => (await fetch(`${server.baseUrl}/userinfo`, { headers: { authorization: `Bearer ${accessA}` } })).status;
    assert.equal((await validate()).body.is_valid, true);
    assert.equal(await userinfo(), 200);
    await adminClient(server).ok('update_client', { id: clientA.id, is_active: false });
    assert.notEqual((await validate()).body.is_valid, true);
    assert.equal(await userinfo(), 401);
  });
});
