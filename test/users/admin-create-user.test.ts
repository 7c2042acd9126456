/**
 * `_create_user` over REST, GraphQL and gRPC: an administrator adds an account without any email, with an
 * initial password or a one-time set-password link. Bad input is invalid_argument with a clear message, a taken
 * address already_exists, a role outside --roles invalid_argument; the typed address is not proven unless the
 * administrator says so; user.created and the admin audit entry (field names, never the password) are written.
 * The link is built from --url, completes with reset_password once and not twice, and proves no address.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { orgCallersOnServer, PROTOCOLS } from '../support/org-callers.ts';
import { restClient } from '../support/rest-client.ts';
import { User } from '../../server/modules/users/index.ts';
import { EventOutbox } from '../../server/modules/events/index.ts';
import { AuditLog } from '../../server/modules/audit/audit-log.entity.ts';

const INITIAL = 'Initial-pass-42';
const CHOSEN = 'Chosen-by-holder-7';

describe('create_user', () => {
  const on = orgCallersOnServer(['--roles', 'user,editor', '--default-roles', 'user']);
  const rest = () => restClient(on.server());
  const row = (email: string) => on.server().app.deps.storage.fork().findOneOrFail(User, { email });

  test('with an initial password, over each protocol: the account exists, unproven, and its first login issues nothing', async () => {
    for (const protocol of PROTOCOLS) {
      const email = `initial-${protocol}@example.com`;
      const answer = await on.over(protocol, 'create_user', { email: ` ${email.toUpperCase()} `, password: INITIAL, given_name: 'Ada', roles: ['editor'] });
      assert.equal(answer.user.email, email, 'stored normalised');
      assert.equal(answer.user.given_name, 'Ada');
      assert.deepEqual(answer.user.roles, ['editor']);
      assert.equal(answer.user.email_verified, false, 'an address the administrator typed is not verified');
      assert.equal(answer.set_password_link, undefined);
      assert.match(answer.message, /first sign-in/);
      const stored = await row(email);
      assert.equal(stored.emailVerifiedAt, null);
      assert.ok(stored.passwordChangeRequiredAt, `${protocol}: marked to change at first sign-in`);
      assert.ok(stored.passwordHash?.startsWith('$argon2'), 'stored hashed');

      const login = await rest().post('/v1/login', { email, password: INITIAL });
      assert.equal(login.status, 400, JSON.stringify(login.body));
      assert.equal(login.body.code, 'failed_precondition');
      assert.match(login.body.message, /password change required/);
      assert.equal(login.body.access_token, undefined);
      assert.equal(login.cookies.length, 0, 'no session cookie');
    }
  });

  test('no roles given: --default-roles; an empty list counts as none on every protocol', async () => {
    for (const protocol of PROTOCOLS) {
      const answer = await on.over(protocol, 'create_user', { email: `defaults-${protocol}@example.com`, password: INITIAL, roles: [] });
      assert.deepEqual(answer.user.roles, ['user']);
    }
  });

  test('bad input is invalid_argument with a message saying what is wrong, on every protocol', async () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ password: INITIAL }, /email or phone_number is required/],
      [{ email: 'neither@example.com' }, /initial password, or set_password_link/],
      [{ email: 'both@example.com', password: INITIAL, set_password_link: true }, /either password or set_password_link/],
      [{ email: 'not-an-address', password: INITIAL }, /invalid email address/],
      [{ phone_number: '123', password: INITIAL }, /phone number must be at least/],
      [{ email: 'short@example.com', password: 'abc' }, /password must be between/],
      [{ email: 'role@example.com', password: INITIAL, roles: ['admin'] }, /role "admin" is not one of the configured roles/],
      [{ phone_number: '+15550101010', password: INITIAL, email_verified: true }, /email_verified needs an email address/],
    ];
    for (const [input, message] of cases) {
      for (const protocol of PROTOCOLS) {
        const outcome = await on.call(protocol, 'create_user', input);
        assert.ok('error' in outcome, `${protocol} ${JSON.stringify(input)} was accepted`);
        assert.equal(outcome.error, 'invalid_argument', `${protocol} ${JSON.stringify(input)}: ${outcome.message}`);
        assert.match(outcome.message, message);
      }
    }
    assert.equal(await on.server().app.deps.storage.fork().count(User, { email: { $in: ['neither@example.com', 'both@example.com', 'role@example.com'] } }), 0, 'nothing was created');
  });

  test('an address already taken, by signup or by another create_user, is already_exists on every protocol', async () => {
    const signup = await rest().post('/v1/signup', { email: 'taken@example.com', password: INITIAL, confirm_password: INITIAL });
    assert.equal(signup.status, 200, JSON.stringify(signup.body));
    await on.over('rest', 'create_user', { phone_number: '+15550202020', set_password_link: true });
    for (const protocol of PROTOCOLS) {
      for (const input of [{ email: 'Taken@Example.com', password: INITIAL }, { phone_number: '+15550202020', password: INITIAL }]) {
        const outcome = await on.call(protocol, 'create_user', input);
        assert.deepEqual(outcome, { error: 'already_exists', message: 'user with given email already exists' }, `${protocol} ${JSON.stringify(input)}`);
      }
    }
  });

  test('email_verified and phone_number_verified mark the addresses on the administrator\'s word only when set', async () => {
    const answer = await on.over('graphql', 'create_user', {
      email: 'vouched@example.com', phone_number: '+15550303030', email_verified: true, phone_number_verified: true, password: INITIAL,
    });
    assert.equal(answer.user.email_verified, true);
    assert.equal(answer.user.phone_number_verified, true);
    assert.equal((await row('vouched@example.com')).emailVerifiedVia, 'admin');
    assert.equal(answer.user.signup_methods, 'basic_auth,mobile_basic_auth');
  });

  test('user.created is recorded and the audit entry names the fields, never the password', async () => {
    const answer = await on.over('rest', 'create_user', { email: 'audited@example.com', password: INITIAL });
    const em = on.server().app.deps.storage.fork();
    const events = await em.find(EventOutbox, { eventName: 'user.created' });
    assert.ok(events.some((event) => (event.payload as any).user?.id === answer.user.id), 'user.created for the new account');
    const entry = await em.findOneOrFail(AuditLog, { action: 'admin.create_user', resourceId: answer.user.id });
    assert.equal(entry.resourceType, 'user');
    assert.equal(entry.actorType, 'super_admin');
    assert.deepEqual(JSON.parse(entry.metadata).fields, ['email', 'password']);
    assert.doesNotMatch(entry.metadata, new RegExp(INITIAL));
  });

  test('anonymous callers and users are refused on every protocol', async () => {
    const signup = await rest().post('/v1/signup', { email: 'plain-user@example.com', password: INITIAL, confirm_password: INITIAL });
    for (const protocol of PROTOCOLS) {
      assert.equal((await on.call(protocol, 'create_user', { email: `anon-${protocol}@example.com`, password: INITIAL }, 'anonymous') as any).error, 'unauthenticated');
      const asUser = (await on.call(protocol, 'create_user', { email: `user-${protocol}@example.com`, password: INITIAL }, { bearer: signup.body.access_token })) as any;
      assert.ok(['unauthenticated', 'permission_denied'].includes(asUser.error), `${protocol}: ${JSON.stringify(asUser)}`);
    }
  });

  test('a set-password link, over each protocol: built from --url, sets a password once and not twice, proves nothing', async () => {
    for (const protocol of PROTOCOLS) {
      const email = `link-${protocol}@example.com`;
      const before = Math.floor(Date.now() / 1000);
      const answer = await on.over(protocol, 'create_user', { email, set_password_link: true });
      const link = new URL(answer.set_password_link);
      assert.equal(`${link.origin}${link.pathname}`, 'http://127.0.0.1:8080/app/reset-password', 'the --url origin, the login UI reset page');
      const token = link.searchParams.get('token')!;
      assert.match(token, /^[A-Za-z0-9_-]{43}$/);
      const lifetime = Number(answer.set_password_link_expires_at) - before;
      assert.ok(lifetime > 7 * 24 * 3600 - 60 && lifetime <= 7 * 24 * 3600 + 60, `valid about 7 days, was ${lifetime} s`);
      assert.match(answer.message, /shown only once/);

      const early = await rest().post('/v1/login', { email, password: CHOSEN });
      assert.equal(early.status, 401, 'no password before the link is used');

      const reset = await rest().post('/v1/reset_password', { token, password: CHOSEN, confirm_password: CHOSEN });
      assert.equal(reset.status, 200, JSON.stringify(reset.body));
      const login = await rest().post('/v1/login', { email, password: CHOSEN });
      assert.equal(login.status, 200, JSON.stringify(login.body));
      assert.ok(login.body.access_token);

      const again = await rest().post('/v1/reset_password', { token, password: 'Another-pass-9', confirm_password: 'Another-pass-9' });
      assert.equal(again.status, 400);
      assert.equal(again.body.message, 'invalid or expired token');
      assert.equal((await rest().post('/v1/login', { email, password: CHOSEN })).status, 200, 'the password chosen first stands');

      const stored = await row(email);
      assert.equal(stored.emailVerifiedAt, null, 'a link the administrator handed over proves no mailbox');
      assert.equal(stored.emailVerifiedVia, null);
      assert.equal(stored.passwordChangeRequiredAt, null);
    }
  });

  test('a phone-only account gets a link too, and then signs in by phone number', async () => {
    const answer = await on.over('grpc', 'create_user', { phone_number: '+15550404040', set_password_link: true });
    assert.equal(answer.user.email, undefined);
    assert.equal(answer.user.phone_number_verified, false);
    const token = new URL(answer.set_password_link).searchParams.get('token')!;
    assert.equal((await rest().post('/v1/reset_password', { token, password: CHOSEN, confirm_password: CHOSEN })).status, 200);
    const login = await rest().post('/v1/login', { phone_number: '+15550404040', password: CHOSEN });
    assert.equal(login.status, 200, JSON.stringify(login.body));
    const stored = await on.server().app.deps.storage.fork().findOneOrFail(User, { phoneNumber: '+15550404040' });
    assert.equal(stored.phoneNumberVerifiedAt, null, 'the link proves no phone number either');
  });
});

describe('create_user when password sign-in or the reset page is off', () => {
  const on = orgCallersOnServer(['--enable-basic-authentication=false', '--enable-login-page=false']);

  test('a password for an email account is failed_precondition naming the flag', async () => {
    for (const protocol of PROTOCOLS) {
      const outcome = (await on.call(protocol, 'create_user', { email: `off-${protocol}@example.com`, password: INITIAL })) as any;
      assert.equal(outcome.error, 'failed_precondition');
      assert.match(outcome.message, /--enable-basic-authentication/);
    }
  });

  test('a link without the login page or --reset-password-url is failed_precondition naming both', async () => {
    const outcome = (await on.call('rest', 'create_user', { phone_number: '+15550505050', set_password_link: true })) as any;
    assert.equal(outcome.error, 'failed_precondition');
    assert.match(outcome.message, /--enable-login-page.*--reset-password-url/);
  });
});
