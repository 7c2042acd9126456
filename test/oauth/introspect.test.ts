/**
 * POST /oauth/introspect (RFC 7662) and the ownership rules of POST /oauth/revoke (RFC 7009 section 2.1) over
 * real HTTP. Introspection: client authentication is required (a public caller is 401 invalid_client); a
 * live token of the caller answers active with its claims; anything else (garbage, forged, expired,
 * revoked, an ID token, its user deactivated, its client deactivated, another client's token) answers only
 * {active: false}. Revocation: a client revokes its own access and refresh tokens; another client's token
 * is left alone, with the same 200 answer.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, CLIENT_ID, CLIENT_SECRET, type TestServer } from '../support/app.ts';
import { TestClock } from '../support/test-clock.ts';
import { createUser, handlerContext, login } from '../tokens/support.ts';
import { Session } from '../../server/modules/sessions/index.ts';
import { mintTokens, type TokenSet } from '../../server/modules/tokens/mint-tokens.ts';
import type { UserRow } from '../../server/modules/users/user.entity.ts';
import { admin, assertInvalidClient, basic, clientCredentials, oauthPost, post, type Credentials, type Registered } from './client-auth-support.ts';

const OFFLINE = { scope: ['openid', 'email', 'profile', 'offline_access'] };
const INSTANCE: Credentials = { basic: [CLIENT_ID, CLIENT_SECRET] };

describe('token introspection and revocation', () => {
  const clock = new TestClock();
  let server: TestServer;
  before(async () => {
    server = await startServer([], { clock });
  });
  after(() => server.close());

  const introspect = (credentials: Credentials, token: string, extra: Record<string, string> = {}) =>
    oauthPost(server, '/oauth/introspect', { token, ...extra }, credentials);
  const revoke = (credentials: Credentials, token: string, hint?: string) =>
    oauthPost(server, '/oauth/revoke', { token, ...(hint ? { token_type_hint: hint } : {}) }, credentials);

  async function assertInactive(credentials: Credentials, token: string, why: string): Promise<void> {
    const reply = await introspect(credentials, token);
    assert.equal(reply.status, 200, `${why}: ${JSON.stringify(reply.body)}`);
    assert.deepEqual(reply.body, { active: false }, why);
    assert.equal(reply.headers.get('cache-control'), 'no-store');
  }

  /** A user's tokens issued to the registered client (as an authorization code exchange would mint them). */
  async function userTokensFor(client: Registered, user: UserRow): Promise<TokenSet> {
    await login(server.app, user, OFFLINE);
    const session = await server.app.deps.storage.fork().findOneOrFail(Session, { userId: user.id });
    return server.app.deps.storage.fork().transactional((tx) => mintTokens(handlerContext(server.app, tx), tx, {
      user, session, scope: OFFLINE.scope, nonce: 'n', familyId: `family-${client.clientId}`, clientId: client.clientId,
    }));
  }

  test('introspection requires client authentication: public and failed callers are invalid_client', async () => {
    const { tokens } = await login(server.app, await createUser(server.app));
    assertInvalidClient(await introspect({ id: CLIENT_ID }, tokens.access_token), true);
    assertInvalidClient(await introspect({}, tokens.access_token), true);
    assertInvalidClient(await introspect({ basic: [CLIENT_ID, 'wrong'] }, tokens.access_token), true);
    const client = await admin(server).create();
    assertInvalidClient(await introspect(post({ clientId: client.clientId, secret: 'wrong' }), tokens.access_token), false);
    const missing = await oauthPost(server, '/oauth/introspect', {}, INSTANCE);
    assert.equal(missing.status, 400);
    assert.equal(missing.body.error, 'invalid_request');
    assert.equal((await fetch(`${server.baseUrl}/oauth/introspect`)).status, 405);
  });

  test('the instance client introspects a live user access token and refresh token', async () => {
    const user = await createUser(server.app);
    const { tokens } = await login(server.app, user, OFFLINE);
    const access = await introspect(INSTANCE, tokens.access_token, { token_type_hint: 'access_token' });
    assert.equal(access.status, 200);
    assert.equal(access.body.active, true);
    assert.equal(access.body.sub, user.id);
    assert.equal(access.body.client_id, CLIENT_ID);
    assert.equal(access.body.aud, CLIENT_ID);
    assert.equal(access.body.iss, 'http://127.0.0.1:8080');
    assert.equal(access.body.scope, 'openid email profile offline_access');
    assert.equal(access.body.token_type, 'access_token');
    assert.equal(access.body.username, user.email);
    assert.equal(typeof access.body.exp, 'number');
    assert.equal(typeof access.body.iat, 'number');
    const refresh = await introspect(INSTANCE, tokens.refresh_token!);
    assert.equal(refresh.body.active, true);
    assert.equal(refresh.body.token_type, 'refresh_token');
    await assertInactive(INSTANCE, tokens.id_token, 'an ID token is not introspected');
  });

  test('garbage, forged and oversized tokens are inactive', async () => {
    const { tokens } = await login(server.app, await createUser(server.app));
    await assertInactive(INSTANCE, 'not-a-jwt', 'garbage');
    await assertInactive(INSTANCE, `${tokens.access_token.slice(0, -4)}AAAA`, 'forged signature');
    await assertInactive(INSTANCE, 'a'.repeat(20_000), 'oversized');
  });

  test('a client_credentials token: active for its client, inactive for others, and once its client is deactivated', async () => {
    const registry = admin(server);
    const owner = await registry.create(['jobs:read']);
    const other = await registry.create(['jobs:read']);
    const token = (await clientCredentials(server, basic(owner))).body.access_token as string;
    const mine = await introspect(basic(owner), token);
    assert.equal(mine.body.active, true);
    assert.equal(mine.body.client_id, owner.clientId);
    assert.equal(mine.body.sub, owner.clientId);
    assert.equal(mine.body.scope, 'jobs:read');
    assert.equal(mine.body.username, undefined);
    await assertInactive(basic(other), token, "another client's token");
    // Not recorded, so not revocable one by one (client-credentials-grant.ts): 200, and the token stays live.
    assert.equal((await revoke(basic(owner), token, 'access_token')).status, 200);
    assert.equal((await introspect(basic(owner), token)).body.active, true);
    await assertInactive(INSTANCE, token, 'the instance client does not see registered clients\' tokens');
    await registry.setActive(owner, false);
    await registry.setActive(owner, true);
    const ownerAgain = await introspect(basic(owner), token);
    assert.equal(ownerAgain.body.active, true, 'reactivated');
    // Deactivated, the owner cannot even authenticate to ask (and no other client may see its tokens).
    await registry.setActive(owner, false);
    const refused = await introspect(basic(owner), token);
    assertInvalidClient(refused, true);
  });

  test('a registered client sees its users\' tokens; the instance client and other clients do not', async () => {
    const registry = admin(server);
    const client = await registry.create();
    const other = await registry.create();
    const user = await createUser(server.app);
    const tokens = await userTokensFor(client, user);
    const own = await introspect(post(client), tokens.access_token);
    assert.equal(own.body.active, true);
    assert.equal(own.body.client_id, client.clientId);
    assert.equal(own.body.aud, client.clientId);
    await assertInactive(post(other), tokens.access_token, 'another registered client');
    await assertInactive(INSTANCE, tokens.access_token, 'the instance client');
    const { tokens: instanceTokens } = await login(server.app, user);
    await assertInactive(post(client), instanceTokens.access_token, 'an instance token asked by a registered client');
  });

  test('expired tokens and tokens of a deactivated user are inactive', async () => {
    const user = await createUser(server.app);
    const { tokens } = await login(server.app, user);
    const client = await admin(server).create(['jobs:read']);
    const clientToken = (await clientCredentials(server, basic(client))).body.access_token as string;
    assert.equal((await introspect(INSTANCE, tokens.access_token)).body.active, true);
    await admin(server).call('revoke_access', { user_id: user.id });
    await assertInactive(INSTANCE, tokens.access_token, 'user access revoked');
    clock.advance(1801);
    try {
      await assertInactive(basic(client), clientToken, 'expired client token');
    } finally {
      clock.advance(-1801);
    }
  });

  test('revocation: a client revokes its own access token; another client\'s revocation leaves it alone', async () => {
    const registry = admin(server);
    const client = await registry.create();
    const other = await registry.create();
    const tokens = await userTokensFor(client, await createUser(server.app));

    const foreign = await revoke(post(other), tokens.access_token, 'access_token');
    assert.equal(foreign.status, 200);
    assert.equal(typeof foreign.body.message, 'string');
    assert.equal((await introspect(post(client), tokens.access_token)).body.active, true, 'untouched by another client');
    const byInstance = await revoke({ id: CLIENT_ID }, tokens.refresh_token!);
    assert.equal(byInstance.status, 200);
    assert.equal((await introspect(post(client), tokens.refresh_token!)).body.active, true, 'untouched by the public instance client');

    const own = await revoke(post(client), tokens.access_token, 'access_token');
    assert.deepEqual(own.body, foreign.body, 'the same answer either way');
    await assertInactive(post(client), tokens.access_token, 'revoked access token');
    assert.equal((await introspect(post(client), tokens.refresh_token!)).body.active, true, 'revoking an access token keeps the refresh token');
    await revoke(basic(client), tokens.refresh_token!, 'refresh_token');
    await assertInactive(post(client), tokens.refresh_token!, 'revoked refresh token');
  });

  test('revocation: the instance client (public, as the SDK) revokes instance access and refresh tokens', async () => {
    const { tokens } = await login(server.app, await createUser(server.app), OFFLINE);
    assert.equal((await revoke({ id: CLIENT_ID }, tokens.access_token)).status, 200);
    await assertInactive(INSTANCE, tokens.access_token, 'revoked access token');
    assert.equal((await revoke({}, tokens.refresh_token!)).status, 200);
    await assertInactive(INSTANCE, tokens.refresh_token!, 'revoked refresh token');
    const missing = await oauthPost(server, '/oauth/revoke', {}, INSTANCE);
    assert.equal(missing.body.error, 'invalid_request');
  });
});
