/**
 * The first sign-in of an account created by an administrator with an initial password (create_user): login
 * with that password issues nothing and answers FAILED_PRECONDITION "password change required" (audited as a
 * refused sign-in); change_initial_password, over REST, GraphQL and gRPC, replaces it once and answers what
 * login answers (tokens, or the second-factor step under --enforce-mfa). The initial password then no longer
 * works, the new one does, and the step cannot be repeated. Wrong or unknown credentials get login's answer.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { orgCallersOnServer, PROTOCOLS } from '../support/org-callers.ts';
import { cookieValue, restClient } from '../support/rest-client.ts';
import { AuditLog } from '../../server/modules/audit/audit-log.entity.ts';
import { User } from '../../server/modules/users/index.ts';

const INITIAL = 'Initial-pass-42';
const CHOSEN = 'Chosen-by-holder-7';

describe('first sign-in with an initial password', () => {
  const on = orgCallersOnServer(['--roles', 'user,editor', '--default-roles', 'user']);
  const rest = () => restClient(on.server());
  const created = async (contact: Record<string, string>) => (await on.over('rest', 'create_user', { ...contact, password: INITIAL })).user;
  const change = (contact: Record<string, string>, password: string, newPassword: string, confirm = newPassword) =>
    ({ ...contact, password, new_password: newPassword, confirm_new_password: confirm });

  test('over each protocol: login refuses, change_initial_password replaces the password once and signs in', async () => {
    for (const protocol of PROTOCOLS) {
      const who = { email: `first-${protocol}@example.com` };
      const user = await created(who);

      const login = (await on.call(protocol, 'login', { ...who, password: INITIAL }, 'anonymous')) as any;
      assert.equal(login.error, 'failed_precondition', `${protocol} login: ${JSON.stringify(login)}`);
      assert.match(login.message, /password change required/);

      const refusals: [Record<string, unknown>, string, RegExp][] = [
        [change(who, 'Wrong-pass-1', CHOSEN), 'unauthenticated', /invalid credentials/],
        [change({ email: `nobody-${protocol}@example.com` }, INITIAL, CHOSEN), 'unauthenticated', /invalid credentials/],
        [change(who, INITIAL, INITIAL), 'invalid_argument', /must differ/],
        [change(who, INITIAL, 'abc'), 'invalid_argument', /password must be between/],
        [change(who, INITIAL, CHOSEN, 'Something-else-1'), 'invalid_argument', /do not match/],
      ];
      for (const [input, kind, message] of refusals) {
        const outcome = (await on.call(protocol, 'change_initial_password', input, 'anonymous')) as any;
        assert.equal(outcome.error, kind, `${protocol} ${JSON.stringify(input)}: ${JSON.stringify(outcome)}`);
        assert.match(outcome.message, message);
      }

      const signedIn = await on.over(protocol, 'change_initial_password', change(who, INITIAL, CHOSEN), 'anonymous');
      assert.equal(typeof signedIn.access_token, 'string', `${protocol}: signed in`);
      assert.equal(signedIn.user.id, user.id);

      assert.equal((await on.call(protocol, 'login', { ...who, password: INITIAL }, 'anonymous') as any).error, 'unauthenticated', 'the initial password is gone');
      assert.equal(typeof (await on.over(protocol, 'login', { ...who, password: CHOSEN }, 'anonymous')).access_token, 'string');
      const twice = (await on.call(protocol, 'change_initial_password', change(who, CHOSEN, 'Third-pass-33'), 'anonymous')) as any;
      assert.equal(twice.error, 'failed_precondition');
      assert.match(twice.message, /no password change is pending/);
    }
  });

  test('by phone number too', async () => {
    const who = { phone_number: '+15550606060' };
    await created(who);
    const login = await rest().post('/v1/login', { ...who, password: INITIAL });
    assert.equal(login.body.code, 'failed_precondition');
    const changed = await rest().post('/v1/change_initial_password', change(who, INITIAL, CHOSEN));
    assert.equal(changed.status, 200, JSON.stringify(changed.body));
    assert.ok(changed.body.access_token);
    assert.ok(cookieValue(changed.cookies, 'cookie_session'), 'a browser gets its session cookie as at login');
  });

  test('the refusal and the change are audited; the password is never in an entry', async () => {
    const who = { email: 'audited-first@example.com' };
    const user = await created(who);
    await rest().post('/v1/login', { ...who, password: INITIAL });
    await rest().post('/v1/change_initial_password', change(who, INITIAL, CHOSEN));
    const entries = await on.server().app.deps.storage.fork().find(AuditLog, { resourceId: user.id }, { orderBy: { createdAt: 'asc' } });
    const refused = entries.find((entry) => entry.action === 'user.login_failed');
    assert.equal(JSON.parse(refused!.metadata).reason, 'password_change_required');
    const changed = entries.find((entry) => entry.action === 'user.password_changed');
    assert.equal(JSON.parse(changed!.metadata).via, 'initial_password');
    for (const entry of entries) assert.doesNotMatch(entry.metadata, /Initial-pass|Chosen-by/);
  });

  test('an account that chose its own password has no change pending; a revoked one changes nothing', async () => {
    const signup = await rest().post('/v1/signup', { email: 'own@example.com', password: INITIAL, confirm_password: INITIAL });
    assert.equal(signup.status, 200);
    const own = await rest().post('/v1/change_initial_password', change({ email: 'own@example.com' }, INITIAL, CHOSEN));
    assert.equal(own.body.code, 'failed_precondition');

    const who = { email: 'revoked-first@example.com' };
    const user = await created(who);
    await on.over('rest', 'revoke_access', { user_id: user.id });
    const revoked = await rest().post('/v1/change_initial_password', change(who, INITIAL, CHOSEN));
    assert.equal(revoked.status, 403, JSON.stringify(revoked.body));
    const row = await on.server().app.deps.storage.fork().findOneOrFail(User, { id: user.id });
    assert.ok(row.passwordChangeRequiredAt, 'still pending: nothing was replaced');
  });

  test('two changes at once: exactly one sets its password', async () => {
    const who = { email: 'race@example.com' };
    await created(who);
    const replies = await Promise.all([
      rest().post('/v1/change_initial_password', change(who, INITIAL, 'First-racer-11')),
      rest().post('/v1/change_initial_password', change(who, INITIAL, 'Second-racer-22')),
    ]);
    assert.deepEqual(replies.map((reply) => reply.status === 200).filter(Boolean).length, 1, JSON.stringify(replies.map((r) => r.body)));
    const winner = replies.findIndex((reply) => reply.status === 200) === 0 ? 'First-racer-11' : 'Second-racer-22';
    assert.equal((await rest().post('/v1/login', { ...who, password: winner })).status, 200);
  });
});

describe('first sign-in with an initial password under --enforce-mfa', () => {
  const on = orgCallersOnServer(['--enforce-mfa']);

  test('change_initial_password answers the second-factor step, as login would, and issues no token', async () => {
    const who = { email: 'enforced@example.com' };
    await on.over('rest', 'create_user', { ...who, password: INITIAL });
    const reply = await restClient(on.server()).post('/v1/change_initial_password', { ...who, password: INITIAL, new_password: CHOSEN, confirm_new_password: CHOSEN });
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    assert.equal(reply.body.access_token, undefined);
    assert.ok(cookieValue(reply.cookies, 'mfa'), 'waiting at the second-factor gate');
    assert.equal(reply.body.should_offer_mfa_setup ?? reply.body.should_show_totp_screen, true);
  });
});
