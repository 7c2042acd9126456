/**
 * grant_type=client_credentials (RFC 6749 section 4.4) over real HTTP: the token response (no refresh or ID
 * token, RFC 6749 section 4.4.3), the JWT's claims (RFC 9068 section 2.2: sub = client_id, client_id, aud and
 * azp the client) verified with the server's key, scope rules (default allowed_scopes, narrower allowed,
 * anything outside is invalid_scope), the instance client and public callers refused as unauthorized_client,
 * discovery advertising the grant, and validate_jwt_token answering such a token as it answers any invalid
 * token (it is for user tokens, with their user's current roles; resource servers introspect client tokens).
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { jwtVerify } from 'jose';
import { startServer, CLIENT_ID, CLIENT_SECRET, TEST_JWT_SECRET, type TestServer } from '../support/app.ts';
import { restClient } from '../support/rest-client.ts';
import { admin, basic, clientCredentials, post } from './client-auth-support.ts';

describe('client_credentials grant', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer();
  });
  after(() => server.close());

  test('a registered client gets a signed access token for itself, with every allowed scope by default', async () => {
    const client = await admin(server).create(['jobs:read', 'jobs:write']);
    const reply = await clientCredentials(server, basic(client));
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    assert.equal(reply.headers.get('cache-control'), 'no-store');
    assert.deepEqual(Object.keys(reply.body).sort(), ['access_token', 'expires_in', 'scope', 'token_type']);
    assert.equal(reply.body.token_type, 'Bearer');
    assert.equal(reply.body.expires_in, 1800);
    assert.equal(reply.body.scope, 'jobs:read jobs:write');
    const { payload, protectedHeader } = await jwtVerify(reply.body.access_token, new TextEncoder().encode(TEST_JWT_SECRET), {
      issuer: 'http://127.0.0.1:8080',
      audience: client.clientId,
      algorithms: ['HS256'],
    });
    assert.equal(protectedHeader.alg, 'HS256');
    assert.equal(payload.sub, client.clientId);
    assert.equal(payload.client_id, client.clientId);
    assert.equal(payload.azp, client.clientId);
    assert.equal(payload.token_type, 'access_token');
    assert.deepEqual(payload.scope, ['jobs:read', 'jobs:write']);
    assert.equal(payload.exp! - payload.iat!, 1800);
    assert.equal(typeof payload.jti, 'string');
    assert.equal(payload.roles, undefined, 'no user, no roles');
  });

  test('a narrower scope is granted; a scope outside allowed_scopes is invalid_scope', async () => {
    const client = await admin(server).create(['jobs:read', 'jobs:write']);
    const narrow = await clientCredentials(server, post(client), 'jobs:read');
    assert.equal(narrow.status, 200);
    assert.equal(narrow.body.scope, 'jobs:read');
    const outside = await clientCredentials(server, post(client), 'jobs:read admin');
    assert.equal(outside.status, 400);
    assert.equal(outside.body.error, 'invalid_scope');
    assert.match(outside.body.error_description, /admin/);
    assert.doesNotMatch(outside.body.error_description, /jobs:write/, 'the allowed list is not disclosed');
    const openid = await clientCredentials(server, post(client), 'openid');
    assert.equal(openid.body.error, 'invalid_scope');
  });

  test('a client without allowed scopes gets a token with an empty scope, and nothing more', async () => {
    // Registration without scopes gives openid email profile (client-default-scopes.test.ts); an update empties the list.
    const client = await admin(server).create(['jobs:read']);
    await admin(server).call('update_client', { id: client.id, allowed_scopes: [] });
    const reply = await clientCredentials(server, post(client));
    assert.equal(reply.status, 200);
    assert.equal(reply.body.scope, '');
    assert.equal((await clientCredentials(server, post(client), 'jobs:read')).body.error, 'invalid_scope');
  });

  test('the instance client, with or without its secret, is unauthorized_client', async () => {
    const confidential = await clientCredentials(server, { basic: [CLIENT_ID, CLIENT_SECRET] });
    assert.equal(confidential.status, 400);
    assert.equal(confidential.body.error, 'unauthorized_client');
    const publicCaller = await clientCredentials(server, { id: CLIENT_ID });
    assert.equal(publicCaller.body.error, 'unauthorized_client');
    const nobody = await clientCredentials(server, {});
    assert.equal(nobody.body.error, 'unauthorized_client');
  });

  test('discovery lists client_credentials among the grant types', async () => {
    const doc = (await (await fetch(`${server.baseUrl}/.well-known/oauth-authorization-server`)).json()) as { grant_types_supported: string[] };
    assert.ok(doc.grant_types_supported.includes('client_credentials'));
  });

  test('validate_jwt_token answers a client token as an invalid token (401), the same answer a forged one gets', async () => {
    const client = await admin(server).create(['jobs:read']);
    const token = (await clientCredentials(server, basic(client))).body.access_token as string;
    const rest = restClient(server);
    const answer = await rest.post('/v1/validate_jwt_token', { token_type: 'access_token', token });
    const forged = await rest.post('/v1/validate_jwt_token', { token_type: 'access_token', token: `${token.slice(0, -4)}AAAA` });
    assert.equal(answer.status, 401, JSON.stringify(answer.body));
    assert.deepEqual(answer.body, forged.body);
    const graphql = await rest.post('/graphql', {
      query: 'query($p: ValidateJWTTokenRequest!) { validate_jwt_token(params: $p) { is_valid } }',
      variables: { p: { token_type: 'access_token', token } },
    });
    assert.equal(graphql.status, 200, JSON.stringify(graphql.body));
    assert.equal(graphql.body.errors?.[0]?.message, 'invalid token', JSON.stringify(graphql.body));
  });
});
