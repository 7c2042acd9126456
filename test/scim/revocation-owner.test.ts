/**
 * An organization's SCIM provider may lift only a revocation it made itself: after the super-admin's
 * revoke_access, SCIM `active: false` then `active: true` must not let the user sign in again (the provider
 * governs its own users' access, not the administrator's decisions). enable_access lifts either kind. The
 * admin operations over REST, GraphQL and gRPC; SCIM over HTTP.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { startServer, type TestServer } from '../support/app.ts';
import { threeProtocols, type Protocol } from '../support/three-protocols.ts';
import { signedUpUser } from '../support/signed-in-user.ts';
import { User } from '../../server/modules/users/index.ts';
import { newUser, orgWithScim, PATCH_OP, scimClient } from './support.ts';

const PASSWORD = 'Str0ng!revocation-pass';

describe('SCIM lifts only its own revocation', () => {
  let server: TestServer;
  let ops: ReturnType<typeof threeProtocols>;
  let org: { orgId: string; token: string };
  const scim = scimClient(() => server, () => org.token);
  before(async () => {
    server = await startServer();
    ops = threeProtocols(server);
    org = await orgWithScim(server, ['revoke.example']);
  });
  after(async () => {
    ops?.close();
    await server?.close();
  });

  const loginStatus = async (email: string) => {
    const res = await fetch(`${server.baseUrl}/v1/login`, {
      method: 'POST',
      headers: { origin: server.baseUrl, 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: PASSWORD }),
    });
    await res.arrayBuffer();
    return res.status;
  };
  const setActive = async (id: string, active: boolean) => {
    const answer = await scim('PATCH', `/Users/${id}`, { schemas: [PATCH_OP], Operations: [{ op: 'replace', path: 'active', value: active }] });
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.equal(answer.body.active, active);
  };
  const adminOp = (protocol: Protocol, name: 'revoke_access' | 'enable_access', userId: string) => ops.over(protocol, name, { user_id: userId }, 'admin');

  /** A governed account (its proven address on the organization's verified domain) that signs in with a password. */
  async function governedUser(): Promise<{ id: string; email: string }> {
    const email = `member-${randomBytes(4).toString('hex')}@revoke.example`;
    await signedUpUser(server, { email, password: PASSWORD, verified: true });
    const linked = await scim('POST', '/Users', newUser(email));
    assert.equal(linked.status, 201, JSON.stringify(linked.body));
    assert.equal(await loginStatus(email), 200);
    return { id: linked.body.id, email };
  }

  for (const protocol of ['rest', 'graphql', 'grpc'] as Protocol[]) {
    test(`${protocol}: revoke_access, then SCIM active false and true: the user stays revoked until enable_access`, async () => {
      const user = await governedUser();
      await adminOp(protocol, 'revoke_access', user.id);
      assert.equal(await loginStatus(user.email), 403);
      await setActive(user.id, false);
      await setActive(user.id, true);
      assert.equal(await loginStatus(user.email), 403, 'the provider cannot lift the administrator\'s revocation');
      const row = await server.app.deps.storage.fork().findOneOrFail(User, { id: user.id });
      assert.notEqual(row.revokedAt, null);
      assert.equal(row.revokedBy, 'admin');
      await adminOp(protocol, 'enable_access', user.id);
      assert.equal(await loginStatus(user.email), 200);
    });

    test(`${protocol}: SCIM active false, then revoke_access: the administrator's revocation replaces the provider's`, async () => {
      const user = await governedUser();
      await setActive(user.id, false);
      await adminOp(protocol, 'revoke_access', user.id);
      await setActive(user.id, true);
      assert.equal(await loginStatus(user.email), 403);
      await adminOp(protocol, 'enable_access', user.id);
      assert.equal(await loginStatus(user.email), 200);
    });

    test(`${protocol}: the provider lifts its own revocation; enable_access lifts it too`, async () => {
      const user = await governedUser();
      await setActive(user.id, false);
      assert.equal(await loginStatus(user.email), 403);
      assert.equal((await server.app.deps.storage.fork().findOneOrFail(User, { id: user.id })).revokedBy, 'scim');
      await setActive(user.id, true);
      assert.equal(await loginStatus(user.email), 200, 'SCIM lifts what SCIM did');
      await setActive(user.id, false);
      await adminOp(protocol, 'enable_access', user.id);
      assert.equal(await loginStatus(user.email), 200, 'the administrator lifts any revocation');
    });
  }
});
