/**
 * An admin's reset of a user's MFA (docs/operations.md#update_user `reset_mfa`: "clears all MFA state") and
 * delete_user remove the user's passkeys too (modules/mfa/reset-mfa.ts purgeMfaRecords ->
 * webauthn/passkeys.ts deleteAllPasskeys): a reset passkey signs in no more and `webauthn` leaves the user's
 * factors; another user's passkeys stay.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from '../support/app.ts';
import { ADMIN_HEADERS as admin } from '../support/admin-client.ts';
import { restClient } from '../support/rest-client.ts';
import { SoftAuthenticator } from '../support/soft-authenticator.ts';
import { signedInUser } from '../support/signed-in-user.ts';
import { addPasskey } from '../support/second-factors.ts';
import { WebauthnCredential } from '../../server/modules/webauthn/index.ts';

const PASSWORD = 'Str0ng!pass-passkey-admin';

describe('admin MFA reset and deletion remove passkeys', () => {
  let server: TestServer;
  let api: ReturnType<typeof restClient>;
  let count = 0;
  before(async () => {
    server = await startServer();
    api = restClient(server);
  });
  after(async () => {
    await server?.close();
  });

  async function withPasskey() {
    const user = await signedInUser(server, { email: `passkey-admin-${++count}@example.com`, password: PASSWORD });
    const { authenticator } = await addPasskey(server, user.bearer);
    return { id: user.userId, email: user.email, bearer: user.bearer, authenticator };
  }
  const signIn = async (authenticator: SoftAuthenticator) =>
    (await api.post('/v1/webauthn_login_verify', { credential: authenticator.assert((await api.post('/v1/webauthn_login_options', {})).body.options) })).status;
  const rowsOf = (userId: string) => server.app.deps.storage.fork().count(WebauthnCredential, { userId });

  test('reset_mfa deletes the passkeys of that user only', async () => {
    const user = await withPasskey();
    const other = await withPasskey();
    const reset = await api.post('/v1/admin/update_user', { id: user.id, reset_mfa: true }, admin);
    assert.equal(reset.status, 200, JSON.stringify(reset.body));
    assert.deepEqual(reset.body.enrolled_mfa_methods, []);
    assert.equal(await rowsOf(user.id), 0);
    assert.equal(await signIn(user.authenticator), 401);
    assert.equal(await signIn(other.authenticator), 200, "another user's passkey still works");
  });

  test('delete_user deletes the passkeys', async () => {
    const user = await withPasskey();
    assert.equal((await api.post('/v1/admin/delete_user', { id: user.id }, admin)).status, 200);
    assert.equal(await rowsOf(user.id), 0);
    assert.equal(await signIn(user.authenticator), 401);
  });
});
