/**
 * Roles follow the user (OWASP ASVS 4.2.1, 4.1.3): a role an administrator removes is gone from the next
 * token minted from an existing session (session query, refresh grant, cookie caller) and fails
 * validate_jwt_token / validate_session at once; revoke_access and delete_user stop all of it. Proved over
 * REST, GraphQL and gRPC (the refresh grant exists only as POST /oauth/token).
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { decodeJwt } from 'jose';
import { startServer, ADMIN_SECRET, CLIENT_ID, type TestServer } from '../support/app.ts';
import { opCaller, CODES, type Protocol } from './protocol-calls.ts';
import { refreshGrant as refreshGrantAt } from '../support/rest-client.ts';

const PASSWORD = 'Str0ng!pass';
const ADMIN = { 'x-service-admin-secret': ADMIN_SECRET };
const PROTOCOLS: Protocol[] = ['rest', 'graphql', 'grpc'];

describe('roles follow the user', () => {
  let server: TestServer;
  let ops: ReturnType<typeof opCaller>;
  before(async () => {
    server = await startServer(['--roles', 'user,editor', '--default-roles', 'user']);
    ops = opCaller(server);
  });
  after(async () => {
    ops?.close();
    await server?.close();
  });

  const refreshGrant = (refreshToken: string) => refreshGrantAt(server, CLIENT_ID, refreshToken);

  /** A user holding user and editor, signed in with both over `protocol` (offline_access: a refresh token too). */
  async function editorSignedIn(protocol: Protocol, email: string) {
    const signup = await ops.call('rest', 'signup', { email, password: PASSWORD, confirm_password: PASSWORD, roles: ['user', 'editor'] });
    assert.ok(signup.ok, JSON.stringify(signup.body));
    const login = await ops.call(protocol, 'login', { email, password: PASSWORD, scope: ['openid', 'email', 'offline_access'] });
    assert.ok(login.ok, JSON.stringify(login.body));
    assert.deepEqual(decodeJwt(login.body.access_token).roles, ['user', 'editor']);
    return { id: signup.body.user.id as string, tokens: login.body, cookie: login.cookies };
  }

  for (const protocol of PROTOCOLS) {
    test(`${protocol}: a removed role is gone from the next session and refresh, and fails validation at once`, async () => {
      const { id, tokens, cookie } = await editorSignedIn(protocol, `roles-${protocol}@example.com`);
      const demoted = await ops.call(protocol, 'update_user', { id, roles: ['user'] }, ADMIN);
      assert.ok(demoted.ok, JSON.stringify(demoted.body));

      const asEditor = await ops.call(protocol, 'validate_jwt_token', { token_type: 'access_token', token: tokens.access_token, roles: ['editor'] });
      assert.equal(asEditor.ok, false, 'the token copy of the removed role no longer counts');
      assert.equal(asEditor.code, CODES.forbidden[protocol]);
      const idAsEditor = await ops.call(protocol, 'validate_jwt_token', { token_type: 'id_token', token: tokens.id_token, roles: ['editor'] });
      assert.equal(idAsEditor.code, CODES.forbidden[protocol], 'nor does the ID token role claim');
      const asUser = await ops.call(protocol, 'validate_jwt_token', { token_type: 'access_token', token: tokens.access_token, roles: ['user'] });
      assert.ok(asUser.ok, JSON.stringify(asUser.body));
      assert.deepEqual(asUser.body.claims.roles, ['user'], 'the answered claims show the roles held now');

      const sessionToken = /cookie_session=([^;]+)/.exec(cookie)![1]!;
      const sessionAsEditor = await ops.call(protocol, 'validate_session', { cookie: sessionToken, roles: ['editor'] });
      assert.equal(sessionAsEditor.code, CODES.forbidden[protocol]);
      assert.ok((await ops.call(protocol, 'validate_session', { cookie: sessionToken, roles: ['user'] })).ok);

      const grant = await refreshGrant(tokens.refresh_token);
      assert.equal(grant.status, 200, JSON.stringify(grant.body));
      assert.deepEqual(decodeJwt(grant.body.access_token).roles, ['user']);
      assert.deepEqual(decodeJwt(grant.body.refresh_token).roles, ['user']);
      assert.deepEqual(decodeJwt(grant.body.access_token).allowed_roles, ['user']);

      // The session query ends the old session (and with it that refresh chain), so it comes second.
      const refreshed = await ops.call(protocol, 'session', {}, { cookie });
      assert.ok(refreshed.ok, JSON.stringify(refreshed.body));
      assert.deepEqual(decodeJwt(refreshed.body.access_token).roles, ['user']);
      assert.deepEqual(decodeJwt(refreshed.body.id_token).role, ['user']);

      // Given back, the role the session asked for returns with the next mint (it was requested, and is held).
      assert.ok((await ops.call(protocol, 'update_user', { id, roles: ['user', 'editor'] }, ADMIN)).ok);
      const again = await ops.call(protocol, 'session', {}, { cookie: refreshed.cookies });
      assert.deepEqual(decodeJwt(again.body.access_token).roles, ['user', 'editor']);
    });

    test(`${protocol}: revoke_access and delete_user stop the session, its tokens and the refresh chain`, async () => {
      const revoked = await editorSignedIn(protocol, `revoked-${protocol}@example.com`);
      assert.ok((await ops.call(protocol, 'revoke_access', { user_id: revoked.id }, ADMIN)).ok);
      const deleted = await editorSignedIn(protocol, `deleted-${protocol}@example.com`);
      assert.ok((await ops.call(protocol, 'delete_user', { id: deleted.id }, ADMIN)).ok);
      for (const { tokens, cookie } of [revoked, deleted]) {
        const validated = await ops.call(protocol, 'validate_jwt_token', { token_type: 'access_token', token: tokens.access_token });
        assert.equal(validated.code, CODES.unauthenticated[protocol]);
        const session = await ops.call(protocol, 'session', {}, { cookie });
        assert.equal(session.code, CODES.unauthenticated[protocol]);
        const profile = await ops.call(protocol, 'profile', {}, { authorization: `Bearer ${tokens.access_token}` });
        assert.equal(profile.code, CODES.unauthenticated[protocol]);
        assert.equal((await refreshGrant(tokens.refresh_token)).status, 400, 'invalid_grant');
      }
    });
  }
});
