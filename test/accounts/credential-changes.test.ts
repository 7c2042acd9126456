/**
 * Proof of the account holder before its credentials change (OWASP ASVS 2.5.6, 3.7.1): update_profile moves
 * the email or phone number, or sets a password, only with the current password, or, for an account without
 * one, after a login of the last 5 minutes. Refused requests change nothing. And how the email was verified
 * is recorded (users/address-proof.ts), so an address nobody proved cannot be used to link a social or SSO
 * sign-in later. Real server, real SMTP sink, injected clock.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from '../support/app.ts';
import { ADMIN_HEADERS as ADMIN } from '../support/admin-client.ts';
import { startSmtpSink, firstLink, type SmtpSink } from '../support/smtp-sink.ts';
import { threeProtocols, CODES, type Protocol } from '../support/three-protocols.ts';
import { signedUpUser } from '../support/signed-in-user.ts';
import { User } from '../../server/modules/users/user.entity.ts';
import { emailProven } from '../../server/modules/users/address-proof.ts';
import { TestClock } from '../support/test-clock.ts';

const PASSWORD = 'Str0ng!pass';


describe('credential changes need proof of the account holder', () => {
  let server: TestServer;
  let smtp: SmtpSink;
  let ops: ReturnType<typeof threeProtocols>;
  const clock = new TestClock();
  before(async () => {
    smtp = await startSmtpSink();
    server = await startServer(['--enable-magic-link-login', '--enable-mobile-basic-authentication', ...smtp.flags()], { clock });
    ops = threeProtocols(server);
  });
  after(async () => {
    ops?.close();
    await server?.close();
    await smtp?.close();
  });

  const row = (email: string) => server.app.deps.storage.fork().findOneOrFail(User, { email });

  const passwordUser = async (email: string) => (await signedUpUser(server, { email, password: PASSWORD })).bearer;

  const mailsSeen = new Map<string, number>();
  /** The token of the next mail to `email` not read yet. */
  async function linkFor(email: string): Promise<string> {
    const skip = mailsSeen.get(email) ?? 0;
    mailsSeen.set(email, skip + 1);
    let index = 0;
    const mail = await smtp.waitFor((m) => m.envelope.to.includes(email) && index++ >= skip);
    return new URL(firstLink(mail.text)!).searchParams.get('token')!;
  }

  for (const protocol of ['rest', 'graphql', 'grpc'] as Protocol[]) {
    test(`${protocol}: email and phone changes without the current password are refused and change nothing`, async () => {
      const email = `holder-${protocol}@example.com`;
      const bearer = await passwordUser(email);
      const phone = protocol === 'rest' ? '+15550000001' : protocol === 'graphql' ? '+15550000002' : '+15550000003';
      for (const change of [{ email: `thief-${protocol}@example.com` }, { phone_number: phone }, { new_password: 'An0ther!pass', confirm_new_password: 'An0ther!pass' }]) {
        const missing = await ops.send(protocol, 'update_profile', { ...change, nickname: 'changed' }, bearer);
        assert.equal(missing.code, CODES.invalid[protocol], JSON.stringify(missing.body));
        const wrong = await ops.send(protocol, 'update_profile', { ...change, old_password: 'Wr0ng!pass' }, bearer);
        assert.equal(wrong.code, CODES.invalid[protocol]);
      }
      const unchanged = await row(email);
      assert.equal(unchanged.phoneNumber, null);
      assert.equal(unchanged.nickname, null, 'a refused request writes nothing, not even the other fields');
      assert.ok((await ops.send(protocol, 'update_profile', { nickname: 'plain' }, bearer)).ok, 'profile fields need no proof');
      assert.ok((await ops.send(protocol, 'update_profile', { email, old_password: undefined }, bearer)).ok, 'the same email is no change');

      const moved = await ops.send(protocol, 'update_profile', { email: `moved-${protocol}@example.com`, phone_number: phone, old_password: PASSWORD }, bearer);
      assert.ok(moved.ok, JSON.stringify(moved.body));
      const after = await row(`moved-${protocol}@example.com`);
      assert.equal(after.phoneNumber, phone);
      // Verification is off: email_verified stays true as before, but the address is recorded as unproven.
      const profile = await ops.send('rest', 'profile', {}, bearer);
      assert.equal(profile.body.email_verified, true);
      assert.equal(profile.body.email_verified_via, undefined, 'how the email was verified is never returned');
      assert.equal(after.emailVerifiedVia, 'unproven');
      assert.equal(emailProven(after), false);
    });
  }

  test('a passwordless account changes its email only within 5 minutes of a login; the link records proof', async () => {
    const email = 'magic-holder@example.com';
    assert.ok((await ops.send('rest', 'magic_link_login', { email })).ok);
    const verified = await ops.send('rest', 'verify_email', { token: await linkFor(email) });
    assert.ok(verified.ok, JSON.stringify(verified.body));
    assert.equal((await row(email)).emailVerifiedVia, 'link');
    assert.equal(emailProven(await row(email)), true);
    const bearer = { authorization: `Bearer ${verified.body.access_token}` };

    clock.advance(5 * 60 + 1);
    const stale = await ops.send('rest', 'update_profile', { email: 'magic-thief@example.com' }, bearer);
    assert.equal(stale.code, 'permission_denied', JSON.stringify(stale.body));
    assert.match(stale.body.message, /sign in again/);
    const staleGraphql = await ops.send('graphql', 'update_profile', { email: 'magic-thief@example.com' }, bearer);
    assert.equal(staleGraphql.code, CODES.forbidden.graphql);
    assert.equal((await row(email)).email, email);

    assert.ok((await ops.send('rest', 'magic_link_login', { email })).ok);
    const fresh = await ops.send('rest', 'verify_email', { token: await linkFor(email) });
    const freshBearer = { authorization: `Bearer ${fresh.body.access_token}` };
    const moved = await ops.send('rest', 'update_profile', { email: 'magic-moved@example.com' }, freshBearer);
    assert.ok(moved.ok, JSON.stringify(moved.body));
    const after = await row('magic-moved@example.com');
    assert.equal(after.emailVerifiedVia, 'unproven', 'the new address was not proven by anything');
    assert.equal(emailProven(after), false);
  });

  test('a password reset by email and an administrator record their proof; unsetting clears it', async () => {
    const email = 'reset-proof@example.com';
    await passwordUser(email);
    assert.equal((await row(email)).emailVerifiedVia, null, 'signup with verification off proves nothing');
    assert.equal(emailProven(await row(email)), false);
    assert.ok((await ops.send('rest', 'forgot_password', { email })).ok);
    const reset = await ops.send('rest', 'reset_password', { token: await linkFor(email), password: 'N3w!passw0rd', confirm_password: 'N3w!passw0rd' });
    assert.ok(reset.ok, JSON.stringify(reset.body));
    assert.equal((await row(email)).emailVerifiedVia, 'password_reset');
    assert.equal(emailProven(await row(email)), true);

    const id = (await row(email)).id;
    assert.ok((await ops.send('rest', 'update_user', { id, email_verified: false }, ADMIN)).ok);
    assert.equal((await row(email)).emailVerifiedVia, null);
    assert.equal(emailProven(await row(email)), false);
    assert.ok((await ops.send('grpc', 'update_user', { id, email_verified: true }, ADMIN)).ok);
    assert.equal((await row(email)).emailVerifiedVia, 'admin');
    assert.equal(emailProven(await row(email)), true);
  });
});
