/**
 * An admin's reset of a user's MFA (docs/operations.md#update_user `reset_mfa`: "clears all MFA state") and
 * delete_user remove the user's passkeys too (modules/mfa/reset-mfa.ts purgeMfaRecords ->
 * webauthn/passkeys.ts deleteAllPasskeys): a reset passkey signs in no more and `webauthn` leaves the user's
 * factors; another user's passkeys stay.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, ADMIN_SECRET, type TestServer } from '../support/app.ts';
import { restClient } from '../support/rest-client.ts';
import { SoftAuthenticator } from '../support/soft-authenticator.ts';
import { WebauthnCredential } from '../../server/modules/webauthn/index.ts';

const PASSWORD = 'Str0ng!pass-passkey-admin';
const ORIGIN = 'http://127.0.0.1:8080';
const admin = { 'x-service-admin-secret': ADMIN_SECRET };

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
    const email = `passkey-admin-${++count}@example.com`;
    const signup = await api.post('/v1/signup', { email, password: PASSWORD, confirm_password: PASSWORD });
    const bearer = { authorization: `Bearer ${signup.body.access_token ?? (await api.post('/v1/login', { email, password: PASSWORD })).body.access_token}` };
    const authenticator = new SoftAuthenticator(ORIGIN);
    const options = await api.post('/v1/webauthn_registration_options', {}, bearer);
    assert.equal((await api.post('/v1/webauthn_registration_verify', { credential: authenticator.register(options.body.options) }, bearer)).status, 200);
    return { id: signup.body.user.id as string, email, bearer, authenticator };
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
