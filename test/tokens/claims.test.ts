/**
 * Claim content and storage of issued tokens (docs/tokens.md): iss is --url, aud the client id,
 * expires_in seconds (~1800), roles under --jwt-role-claim in the ID token with every other User field,
 * amr from the login method, a refresh token only with offline_access, the cookie pair, and nothing but
 * hashes in the database.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { decodeJwt } from 'jose';
import { startServer, CLIENT_ID, type TestServer } from '../support/app.ts';
import { createUser, login } from './support.ts';
import { Session } from '../../server/modules/sessions/index.ts';
import { TokenRecord } from '../../server/modules/tokens/index.ts';

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

describe('claims of issued tokens', () => {
  let server: TestServer;
  before(async () => {
    // A trailing slash on --url must not leak into iss.
    server = await startServer(['--url', 'https://auth.example.test/', '--jwt-role-claim', 'my_roles']);
  });
  after(() => server.close());

  test('access token: iss, aud, sub, 30 min lifetime, scope array, roles, allowed roles, login method, nonce', async () => {
    const user = await createUser(server.app, { roles: ['user', 'editor'] });
    const { tokens } = await login(server.app, user, { roles: ['user'], scope: ['openid', 'email'], nonce: 'n-123' });
    assert.equal(tokens.expires_in, 1800, 'expires_in is seconds until expiry, not a timestamp');
    const access = decodeJwt(tokens.access_token);
    assert.equal(access.iss, 'https://auth.example.test');
    assert.equal(access.aud, CLIENT_ID);
    assert.equal(access.sub, user.id);
    assert.equal(access.exp! - access.iat!, 1800);
    assert.ok(Math.abs(access.iat! - Date.now() / 1000) < 5);
    assert.equal(access.token_type, 'access_token');
    assert.deepEqual(access.scope, ['openid', 'email']);
    assert.deepEqual(access.roles, ['user']);
    assert.deepEqual(access.allowed_roles, ['user', 'editor']);
    assert.equal(access.login_method, 'basic_auth');
    assert.equal(access.nonce, 'n-123');
    assert.equal(tokens.refresh_token, undefined, 'no refresh token without offline_access');
  });

  test('ID token: roles under --jwt-role-claim, every User field but roles, auth_time, amr, acr', async () => {
    const user = await createUser(server.app, { givenName: 'Grace', nickname: 'amazing', appData: { plan: 'pro' } });
    const { tokens } = await login(server.app, user, { nonce: 'n-456' });
    const id = decodeJwt(tokens.id_token);
    assert.equal(id.token_type, 'id_token');
    assert.equal(id.iss, 'https://auth.example.test');
    assert.equal(id.aud, CLIENT_ID);
    assert.equal(id.sub, user.id);
    assert.equal(id.exp! - id.iat!, 1800);
    assert.equal(id.nonce, 'n-456');
    assert.deepEqual(id.my_roles, ['user']);
    assert.equal(id.roles, undefined, 'roles are only under the configured claim name');
    assert.equal(id.email, user.email);
    assert.equal(id.email_verified, true);
    assert.equal(id.given_name, 'Grace');
    assert.equal(id.nickname, 'amazing');
    assert.equal(id.preferred_username, user.email);
    assert.equal(id.signup_methods, 'basic_auth');
    assert.deepEqual(id.app_data, { plan: 'pro' });
    assert.equal(typeof id.auth_time, 'number');
    assert.ok(Math.abs((id.auth_time as number) - id.iat!) <= 1, 'auth_time is the login instant');
    assert.deepEqual(id.amr, ['pwd']);
    assert.equal(id.acr, 'urn:portcullis:loa:1fa');
    assert.equal(typeof id.at_hash, 'string');
    const text = JSON.stringify(id);
    assert.ok(!text.includes('argon2') && !text.includes('password'), 'no password material in the ID token');
  });

  test('amr follows the login method', async () => {
    const user = await createUser(server.app);
    const amrOf = async (loginMethod: string) => {
      const id = decodeJwt((await login(server.app, user, { loginMethod })).tokens.id_token);
      return { amr: id.amr, acr: id.acr, method: id.login_method };
    };
    assert.deepEqual((await amrOf('mobile_basic_auth')).amr, ['pwd']);
    assert.deepEqual((await amrOf('magic_link_login')).amr, ['otp']);
    assert.deepEqual((await amrOf('google')).amr, ['fed']);
    assert.deepEqual((await amrOf('webauthn')).amr, ['hwk']);
    const mfa = await amrOf('basic_auth+totp');
    assert.deepEqual(mfa.amr, ['pwd', 'otp', 'mfa']);
    assert.equal(mfa.acr, 'urn:portcullis:loa:2fa');
  });

  test('offline_access adds a 30-day refresh token that carries the family of all three tokens', async () => {
    const user = await createUser(server.app);
    const { tokens } = await login(server.app, user, { scope: ['openid', 'offline_access'] });
    const refresh = decodeJwt(tokens.refresh_token!);
    assert.equal(refresh.token_type, 'refresh_token');
    assert.equal(refresh.exp! - refresh.iat!, 30 * 24 * 3600);
    assert.equal(typeof refresh.family_id, 'string');
    const em = server.app.deps.storage.fork();
    const records = await em.find(TokenRecord, { userId: user.id });
    assert.equal(records.length, 3);
    assert.deepEqual(new Set(records.map((r) => r.familyId)), new Set([refresh.family_id]));
  });

  test('the session cookie pair is HttpOnly, 24 h, one value; the domain cookie names the parent domain', async () => {
    const user = await createUser(server.app);
    const { effects, sessionToken } = await login(server.app, user);
    assert.deepEqual(effects.cookies.map((c) => c.name), ['cookie_session', 'cookie_session_domain']);
    for (const cookie of effects.cookies) {
      assert.equal(cookie.value, sessionToken);
      assert.equal(cookie.httpOnly, true);
      assert.equal(cookie.maxAge, 24 * 3600);
    }
    assert.equal(effects.cookies[1]!.domain, 'example.test');
  });

  test('only hashes are stored: token records and the session are keyed by SHA-256', async () => {
    const user = await createUser(server.app);
    const { tokens, sessionToken } = await login(server.app, user, { scope: ['openid', 'offline_access'] });
    const em = server.app.deps.storage.fork();
    const records = await em.find(TokenRecord, { userId: user.id });
    assert.deepEqual(
      new Set(records.map((r) => `${r.kind}:${r.id}`)),
      new Set([`access:${sha256(tokens.access_token)}`, `id:${sha256(tokens.id_token)}`, `refresh:${sha256(tokens.refresh_token!)}`]),
    );
    const sessions = await em.find(Session, { userId: user.id });
    assert.equal(sessions.length, 1);
    assert.equal(sessions[0]!.id, sha256(sessionToken));
    assert.equal(sessions[0]!.expiresAt.getTime() - sessions[0]!.createdAt.getTime(), 24 * 3600 * 1000);
    assert.ok(records.every((r) => r.sessionId === sessions[0]!.id));
    // No raw secret anywhere in the stored rows.
    const dump = JSON.stringify([records, sessions]);
    for (const secret of [tokens.access_token, tokens.id_token, tokens.refresh_token!, sessionToken]) assert.ok(!dump.includes(secret));
  });
});
