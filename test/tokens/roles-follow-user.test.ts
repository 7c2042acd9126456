/**
 * Roles follow the user (OWASP ASVS 4.2.1, 4.1.3): a role an administrator removes is gone from the next
 * token minted from an existing session (session query, refresh grant, cookie caller) and fails
 * validate_jwt_token / validate_session at once; revoke_access and delete_user stop all of it. Proved over
 * REST, GraphQL and gRPC (the refresh grant exists only as POST /oauth/token).
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { decodeJwt } from 'jose';
import { startServer, CLIENT_ID, type TestServer } from '../support/app.ts';
import { threeProtocols, CODES, type Protocol } from '../support/three-protocols.ts';
import { signedInUser } from '../support/signed-in-user.ts';
import { refreshGrant as refreshGrantAt } from '../support/rest-client.ts';

const PASSWORD = 'Str0ng!pass';
const PROTOCOLS: Protocol[] = ['rest', 'graphql', 'grpc'];

describe('roles follow the user', () => {
  let server: TestServer;
  let ops: ReturnType<typeof threeProtocols>;
  before(async () => {
    server = await startServer(['--roles', 'user,editor', '--default-roles', 'user']);
    ops = threeProtocols(server);
  });
  after(async () => {
    ops?.close();
    await server?.close();
  });

  const refreshGrant = (refreshToken: string) => refreshGrantAt(server, CLIENT_ID, refreshToken);

  /** A user holding user and editor, signed in with both over `protocol` (offline_access: a refresh token too). */
  async function editorSignedIn(protocol: Protocol, email: string) {
    const user = await signedInUser(server, { email, password: PASSWORD, profile: { roles: ['user', 'editor'] }, protocol, scope: ['openid', 'email', 'offline_access'] });
    assert.deepEqual(decodeJwt(user.accessToken).roles, ['user', 'editor']);
    return { id: user.userId, tokens: user.answer, cookie: user.cookies };
  }

  for (const protocol of PROTOCOLS) {
    test(`${protocol}: a removed role is gone from the next session and refresh, and fails validation at once`, async () => {
      const { id, tokens, cookie } = await editorSignedIn(protocol, `roles-${protocol}@example.com`);
      const demoted = await ops.send(protocol, 'update_user', { id, roles: ['user'] }, 'admin');
      assert.ok(demoted.ok, JSON.stringify(demoted.body));

      const asEditor = await ops.send(protocol, 'validate_jwt_token', { token_type: 'access_token', token: tokens.access_token, roles: ['editor'] });
      assert.equal(asEditor.ok, false, 'the token copy of the removed role no longer counts');
      assert.equal(asEditor.code, CODES.forbidden[protocol]);
      const idAsEditor = await ops.send(protocol, 'validate_jwt_token', { token_type: 'id_token', token: tokens.id_token, roles: ['editor'] });
      assert.equal(idAsEditor.code, CODES.forbidden[protocol], 'nor does the ID token role claim');
      const asUser = await ops.send(protocol, 'validate_jwt_token', { token_type: 'access_token', token: tokens.access_token, roles: ['user'] });
      assert.ok(asUser.ok, JSON.stringify(asUser.body));
      assert.deepEqual(asUser.body.claims.roles, ['user'], 'the answered claims show the roles held now');

      const sessionToken = /cookie_session=([^;]+)/.exec(cookie)![1]!;
      const sessionAsEditor = await ops.send(protocol, 'validate_session', { cookie: sessionToken, roles: ['editor'] });
      assert.equal(sessionAsEditor.code, CODES.forbidden[protocol]);
      assert.ok((await ops.send(protocol, 'validate_session', { cookie: sessionToken, roles: ['user'] })).ok);

      const grant = await refreshGrant(tokens.refresh_token);
      assert.equal(grant.status, 200, JSON.stringify(grant.body));
      assert.deepEqual(decodeJwt(grant.body.access_token).roles, ['user']);
      assert.deepEqual(decodeJwt(grant.body.refresh_token).roles, ['user']);
      assert.deepEqual(decodeJwt(grant.body.access_token).allowed_roles, ['user']);

      // The session query ends the old session (and with it that refresh chain), so it comes second.
      const refreshed = await ops.send(protocol, 'session', {}, { cookie });
      assert.ok(refreshed.ok, JSON.stringify(refreshed.body));
      assert.deepEqual(decodeJwt(refreshed.body.access_token).roles, ['user']);
      assert.deepEqual(decodeJwt(refreshed.body.id_token).role, ['user']);

      // Given back, the role the session asked for returns with the next mint (it was requested, and is held).
      assert.ok((await ops.send(protocol, 'update_user', { id, roles: ['user', 'editor'] }, 'admin')).ok);
      const again = await ops.send(protocol, 'session', {}, { cookie: refreshed.cookies });
      assert.deepEqual(decodeJwt(again.body.access_token).roles, ['user', 'editor']);
    });

    test(`${protocol}: revoke_access and delete_user stop the session, its tokens and the refresh chain`, async () => {
      const revoked = await editorSignedIn(protocol, `revoked-${protocol}@example.com`);
      assert.ok((await ops.send(protocol, 'revoke_access', { user_id: revoked.id }, 'admin')).ok);
      const deleted = await editorSignedIn(protocol, `deleted-${protocol}@example.com`);
      assert.ok((await ops.send(protocol, 'delete_user', { id: deleted.id }, 'admin')).ok);
      for (const { tokens, cookie } of [revoked, deleted]) {
        const validated = await ops.send(protocol, 'validate_jwt_token', { token_type: 'access_token', token: tokens.access_token });
        assert.equal(validated.code, CODES.unauthenticated[protocol]);
        const session = await ops.send(protocol, 'session', {}, { cookie });
        assert.equal(session.code, CODES.unauthenticated[protocol]);
        const profile = await ops.send(protocol, 'profile', {}, { authorization: `Bearer ${tokens.access_token}` });
        assert.equal(profile.code, CODES.unauthenticated[protocol]);
        assert.equal((await refreshGrant(tokens.refresh_token)).status, 400, 'invalid_grant');
      }
    });
  }
});
