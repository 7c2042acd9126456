/**
 * export_my_data (docs/privacy.md#what-is-exported; GDPR Art. 15 and 20): over REST, GraphQL and gRPC a
 * signed-in user gets one JSON document with their profile, sessions, second factors, passkeys, linked
 * identities, organizations and roles, OAuth consents and the audit entries about them; no secret (password
 * hash, TOTP seed, recovery codes, session or token digests, refresh tokens, passkey public keys) and nothing
 * of another user. The copy is limited per account (docs/limits.md#rate-limits), and refused to nobody.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { startServer, type TestServer } from '../support/app.ts';
import { TestClock } from '../support/test-clock.ts';
import { threeProtocols, CODES, PROTOCOLS } from '../support/three-protocols.ts';
import { loggedIn, signedInUser, type SignedInUser } from '../support/signed-in-user.ts';
import { enrolTotp, addPasskey } from '../support/second-factors.ts';
import { adminClient } from '../support/admin-client.ts';
import { User } from '../../server/modules/users/user.entity.ts';
import { Session } from '../../server/modules/sessions/session.entity.ts';
import { TokenRecord } from '../../server/modules/tokens/token-record.entity.ts';
import { MfaFactor } from '../../server/modules/mfa/mfa-factor.entity.ts';
import { RecoveryCode } from '../../server/modules/mfa/recovery-code.entity.ts';
import { WebauthnCredential } from '../../server/modules/webauthn/webauthn-credential.entity.ts';
import { Consent } from '../../server/modules/oauth/consent.entity.ts';
import { SocialIdentity } from '../../server/modules/social/social.entities.ts';

describe('export_my_data', () => {
  const clock = new TestClock();
  let server: TestServer;
  let ops: ReturnType<typeof threeProtocols>;
  let admin: ReturnType<typeof adminClient>;
  let alice: SignedInUser;
  let bob: SignedInUser;
  let secrets: string[] = [];

  before(async () => {
    server = await startServer([], { clock });
    ops = threeProtocols(server);
    admin = adminClient(server);
    alice = await signedInUser(server, { email: 'alice-export@example.com', scope: ['openid', 'offline_access'], profile: { given_name: 'Alice' } });
    bob = await signedInUser(server, { email: 'bob-export@example.com', profile: { given_name: 'Bobbington' } });
    const totp = await enrolTotp(server, alice.bearer, clock);
    await addPasskey(server, alice.bearer, { name: 'Work laptop' });
    const org = await admin.ok('create_organization', { name: 'export-org', display_name: 'Export Org' });
    await admin.ok('add_org_member', { org_id: org.id, user_id: alice.userId, roles: ['billing'] });
    await admin.ok('add_org_member', { org_id: org.id, user_id: bob.userId, roles: ['viewer'] });
    const em = server.app.deps.storage.fork();
    const now = clock.now();
    em.create(Consent, { id: randomUUID(), userId: alice.userId, clientId: 'calendar-app', scopes: ['openid', 'email'], createdAt: now, updatedAt: now });
    em.create(SocialIdentity, { id: `github:alice-${randomUUID()}`, provider: 'github', subject: 'gh-4242', userId: alice.userId, createdAt: now });
    em.create(SocialIdentity, { id: `github:bob-${randomUUID()}`, provider: 'github', subject: 'gh-bob-9999', userId: bob.userId, createdAt: now });
    await em.flush();
    // Every stored secret of Alice's, and the tokens she was handed: none may appear in her copy.
    const user = await em.findOneOrFail(User, { id: alice.userId });
    const sessions = await em.find(Session, { userId: alice.userId });
    const records = await em.find(TokenRecord, { userId: alice.userId });
    const factors = await em.find(MfaFactor, { userId: alice.userId });
    const codes = await em.find(RecoveryCode, { userId: alice.userId });
    const passkeys = await em.find(WebauthnCredential, { userId: alice.userId });
    assert.ok(user.passwordHash && sessions.length && records.length && factors.some((f) => f.secretSealed) && codes.length && passkeys.length);
    secrets = [
      user.passwordHash!, alice.password, alice.accessToken, alice.refreshToken!, alice.sessionCookie!, totp.secret, ...totp.recoveryCodes,
      ...sessions.map((s) => s.id), ...records.map((r) => r.id), ...factors.map((f) => f.secretSealed!).filter(Boolean),
      ...codes.map((c) => c.digest), ...passkeys.map((p) => p.publicKey),
    ];
  });
  after(async () => {
    ops?.close();
    admin?.close();
    await server?.close();
  });

  for (const protocol of PROTOCOLS) {
    test(`over ${protocol}: every kind of data, no secret, nothing of another user`, async () => {
      const answer = await ops.over(protocol, 'export_my_data', {}, alice.bearer);
      assert.match(answer.file_name, /^portcullis-data-\d{4}-\d{2}-\d{2}\.json$/);
      const text: string = answer.document;
      const data = JSON.parse(text);
      assert.equal(data.format, 'portcullis.personal-data/v1');
      assert.equal(data.profile.id, alice.userId);
      assert.equal(data.profile.email, 'alice-export@example.com');
      assert.equal(data.profile.given_name, 'Alice');
      assert.ok(data.sessions.items.length >= 2, 'the signup and the login sessions');
      for (const session of data.sessions.items) assert.match(session.id, /^[0-9a-f]{32}$/, 'a session reference');
      assert.deepEqual(data.second_factors.enrolled_methods.sort(), ['totp', 'webauthn']);
      assert.ok(data.second_factors.factors.some((f: any) => f.method === 'totp' && f.verified && f.verified_at));
      assert.equal(data.second_factors.recovery_codes_remaining, 10);
      assert.deepEqual(data.passkeys.map((p: any) => p.name), ['Work laptop']);
      assert.ok(data.passkeys[0].created_at);
      assert.deepEqual(data.organizations.map((o: any) => [o.name, o.roles]), [['export-org', ['billing']]]);
      assert.deepEqual(data.oauth_consents.map((c: any) => [c.client_id, c.scopes]), [['calendar-app', ['openid', 'email']]]);
      assert.deepEqual(data.social_identities.map((i: any) => [i.provider, i.subject]), [['github', 'gh-4242']]);
      assert.deepEqual(data.organization_sso_identities, []);
      const actions = data.audit_entries.items.map((e: any) => e.action);
      assert.ok(actions.includes('user.login'), `audit entries: ${actions}`);
      assert.ok(actions.includes('admin.add_org_member'), 'an administrator acting on the account');
      const byAdmin = data.audit_entries.items.find((e: any) => e.action === 'admin.add_org_member');
      assert.equal(byAdmin.role, 'subject');
      assert.equal(byAdmin.ip_address, undefined, "the administrator's address is theirs");
      assert.equal(data.audit_entries.truncated, false);
      for (const secret of secrets) assert.ok(!text.includes(secret), `a secret appears in the copy: ${secret.slice(0, 12)}... at ${text.slice(Math.max(0, text.indexOf(secret) - 200), text.indexOf(secret) + 40)}`);
      assert.doesNotMatch(text, /password_hash|secret_sealed|code_digest|public_key|"digest"/i);
      for (const other of [bob.userId, bob.email, 'Bobbington', 'gh-bob-9999', 'viewer']) assert.ok(!text.includes(other), `another user's data appears: ${other}`);
    });
  }

  test('refused without a signed-in user, and with an administrator secret', async () => {
    for (const protocol of PROTOCOLS) {
      const anonymous = await ops.send(protocol, 'export_my_data', {}, 'anonymous');
      assert.equal(anonymous.ok, false);
      assert.equal(anonymous.code, CODES.unauthenticated[protocol]);
      const asAdmin = await ops.send(protocol, 'export_my_data', {}, 'admin');
      assert.equal(asAdmin.ok, false, 'the super-admin has no personal data to export');
    }
  });

  test('limited per account: the sixth copy within an hour is refused on every protocol, other accounts unaffected', async () => {
    const carol = await signedInUser(server, { email: 'carol-export@example.com' });
    for (let i = 0; i < 5; i++) await ops.over(PROTOCOLS[i % 3]!, 'export_my_data', {}, carol.bearer);
    for (const protocol of PROTOCOLS) {
      const refused = await ops.call(protocol, 'export_my_data', {}, carol.bearer);
      assert.deepEqual('error' in refused && refused.error, 'too_many_requests', `${protocol}: ${JSON.stringify(refused)}`);
      assert.match((refused as { message: string }).message, /too many data exports/);
    }
    // Another session of the same account shares the count: a new sign-in buys nothing.
    const again = await loggedIn(server, { email: carol.email, password: carol.password });
    assert.ok('error' in (await ops.call('rest', 'export_my_data', {}, again.bearer)), 'a new session of the account is refused too');
    const other = await ops.call('rest', 'export_my_data', {}, bob.bearer);
    assert.ok('ok' in other, 'another account keeps its own allowance');
  });
});
