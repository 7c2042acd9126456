/**
 * Erasure (docs/privacy.md#what-erasure-does; GDPR Art. 17): delete_my_account over REST, GraphQL and gRPC
 * and the super-admin's delete_user leave no row that holds the account's id, email address or phone number
 * in any table (every entity of the ORM's metadata is read back, on SQLite and on PostgreSQL) once the
 * `user.deleted` event owed to the webhooks was sent with the account as it was (docs/events.md): the outbox
 * and the delivery log then keep only the pseudonym. The audit entries stay, naming the account
 * by its pseudonym, without its address, IP or user agent; its tokens and session fail at once; another
 * account's rows stay. delete_my_account needs a recent sign-in or the current password, and a wrong
 * password counts against the login lockout.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { EntityManager, EntityMetadata } from '@mikro-orm/core';
import { startServer, type TestServer } from '../support/app.ts';
import { TestClock } from '../support/test-clock.ts';
import { threeProtocols, CODES, type Protocol } from '../support/three-protocols.ts';
import { signedInUser, type SignedInUser } from '../support/signed-in-user.ts';
import { enrolTotp, addPasskey } from '../support/second-factors.ts';
import { adminClient } from '../support/admin-client.ts';
import { createTestDatabase, type TestDatabase } from '../support/databases.ts';
import { startReceiver, type Receiver } from '../webhooks/receiver.ts';
import { AuditLog } from '../../server/modules/audit/audit-log.entity.ts';
import { erasedUserPseudonym } from '../../server/modules/audit/erased-user.ts';
import { Consent } from '../../server/modules/oauth/consent.entity.ts';
import { SocialIdentity } from '../../server/modules/social/social.entities.ts';
import { OrgSsoIdentity } from '../../server/modules/org-sso/org-sso.entities.ts';
import { MessageJob } from '../../server/modules/messages/message-job.entity.ts';
import { EventOutbox } from '../../server/modules/events/event-outbox.entity.ts';
import { WebhookLog } from '../../server/modules/webhooks/webhook.entity.ts';
import { BackchannelLogoutDelivery } from '../../server/modules/oauth/backchannel/backchannel.entity.ts';

const STEP_UP_SECONDS = 5 * 60;

/** Every row of every table the ORM knows, as `table: json` lines, that contains one of `needles` (any case). */
async function rowsNaming(em: EntityManager, needles: readonly string[]): Promise<string[]> {
  const found: string[] = [];
  const all = em.getMetadata().getAll() as unknown;
  const metas = (all instanceof Map ? [...all.values()] : Object.values(all as object)) as EntityMetadata[];
  const tables = metas.filter((meta) => !meta.abstract && !meta.embeddable && meta.class);
  // The scan must really read the tables: every module's entities, the users table among them.
  assert.ok(tables.length >= 40 && tables.some((meta) => meta.tableName === 'users'), `tables scanned: ${tables.map((meta) => meta.tableName)}`);
  for (const meta of tables) {
    const rows = await em.find(meta.class, {}, { disableIdentityMap: true });
    for (const row of rows) {
      const text = JSON.stringify(row).toLowerCase();
      if (needles.some((needle) => text.includes(needle.toLowerCase()))) found.push(`${meta.tableName}: ${JSON.stringify(row)}`);
    }
  }
  return found;
}

for (const kind of ['sqlite', 'postgres'] as const) {
  describe(`erasure on ${kind}`, () => {
    const clock = new TestClock();
    let db: TestDatabase | undefined;
    let server: TestServer;
    let ops: ReturnType<typeof threeProtocols>;
    let admin: ReturnType<typeof adminClient>;
    let bob: SignedInUser;
    let orgId: string;
    let receiver: Receiver;
    let count = 0;

    before(async () => {
      db = kind === 'sqlite' ? undefined : await createTestDatabase(kind);
      server = await startServer([...(db?.flags ?? []), '--webhook-allow-private-addresses=true'], { clock });
      receiver = await startReceiver();
      ops = threeProtocols(server);
      admin = adminClient(server);
      await admin.ok('add_webhook', { event_name: 'user.deleted', endpoint: receiver.url, enabled: true });
      orgId = (await admin.ok('create_organization', { name: `erasure-${kind}`, display_name: 'Erasure Org' })).id;
      bob = await signedInUser(server, { email: `bob-erasure-${kind}@example.com`, phone: '+15557770001' });
      await admin.ok('add_org_member', { org_id: orgId, user_id: bob.userId, roles: ['viewer'] });
    });
    after(async () => {
      ops?.close();
      admin?.close();
      await server?.close();
      await receiver?.close();
      await db?.cleanup();
    });

    /** An account with a row in every kind of table that holds personal data. */
    async function fullAccount(): Promise<SignedInUser> {
      const n = ++count;
      const user = await signedInUser(server, {
        email: `Dana.Erasure-${kind}-${n}@Example.com`.toLowerCase(),
        phone: `+1555888${String(n).padStart(4, '0')}`,
        profile: { given_name: 'Dana', family_name: 'Erasure' },
        scope: ['openid', 'offline_access'],
      });
      await enrolTotp(server, user.bearer, clock);
      await addPasskey(server, user.bearer, { name: 'Phone' });
      await admin.ok('add_org_member', { org_id: orgId, user_id: user.userId, roles: ['billing'] });
      const em = server.app.deps.storage.fork();
      const now = clock.now();
      em.create(Consent, { id: randomUUID(), userId: user.userId, clientId: 'calendar-app', scopes: ['openid'], createdAt: now, updatedAt: now });
      em.create(SocialIdentity, { id: `github:${randomUUID()}`, provider: 'github', subject: `gh-${n}`, userId: user.userId, createdAt: now });
      em.create(OrgSsoIdentity, { id: `${orgId}:${randomUUID()}`, orgId, connectionId: randomUUID(), subject: `sso-${n}`, userId: user.userId, createdAt: now });
      // A reset mail a stranger asked for (the job carries the address only) and a code texted to the number.
      em.create(MessageJob, { id: randomUUID(), channel: 'email', flow: 'forgot_password', destination: user.email, userId: null, redirectUri: null, options: null, status: 'sent', attempts: 1, nextAttemptAt: now, leaseUntil: null, lastError: null, createdAt: now, updatedAt: now });
      em.create(MessageJob, { id: randomUUID(), channel: 'sms', flow: 'mfa_code', destination: user.phone!, userId: user.userId, redirectUri: null, options: null, status: 'failed', attempts: 5, nextAttemptAt: now, leaseUntil: null, lastError: null, createdAt: now, updatedAt: now });
      // History of webhooks: an event handed over and the log of its delivery, both naming the account.
      em.create(EventOutbox, { id: randomUUID(), eventName: 'user.login', payload: { user: { id: user.userId, email: user.email } }, createdAt: now, deliveredAt: now, attempts: 1 });
      em.create(WebhookLog, { id: randomUUID(), webhookId: randomUUID(), deliveryId: null, httpStatus: 200, request: JSON.stringify({ event_name: 'user.login', user: { email: user.email } }), response: '{}', createdAt: now, updatedAt: now });
      em.create(BackchannelLogoutDelivery, { id: randomUUID(), clientId: 'calendar-app', uri: 'https://rp.example/logout', userId: user.userId, sid: randomUUID(), status: 'failed', attempts: 3, nextAttemptAt: now, leaseUntil: null, createdAt: now });
      await em.flush();
      return user;
    }

    async function assertErased(user: SignedInUser): Promise<void> {
      const pseudonym = erasedUserPseudonym(server.app.deps.config, user.userId);
      // The webhook hears of the deletion with the account as it was (the event's contract)...
      const deadline = Date.now() + 15_000;
      while (!receiver.received.some((r) => r.json.user?.id === user.userId) && Date.now() < deadline) await new Promise((done) => setTimeout(done, 50));
      const heard = receiver.received.find((r) => r.json.user?.id === user.userId);
      assert.equal(heard?.json.event_name, 'user.deleted');
      assert.equal(heard?.json.user.email, user.email);
      await server.app.webhooks.idle();
      // ...and afterwards no row names it: the outbox and the log keep the pseudonym.
      const em = server.app.deps.storage.fork();
      assert.deepEqual(await rowsNaming(em, [user.userId, user.email, user.phone!]), [], 'no row names the erased account');
      const event = (await em.find(EventOutbox, { eventName: 'user.deleted' })).find((row) => JSON.stringify(row.payload).includes(pseudonym));
      assert.deepEqual(event?.payload, { user: { id: pseudonym } }, 'the handed-over event keeps the pseudonym');
      assert.ok((await em.find(WebhookLog, {})).some((log) => String(log.request).includes(pseudonym)), 'the delivery log names the pseudonym');
      const entries = await em.find(AuditLog, { actorId: pseudonym });
      assert.ok(entries.some((entry) => entry.action === 'user.login'), 'the audit entries of the account stay under its pseudonym');
      for (const entry of entries) assert.deepEqual([entry.actorEmail, entry.ipAddress, entry.userAgent], ['', '', ''], 'without its address or device');
      // The other account is untouched.
      assert.ok((await rowsNaming(em, [bob.userId])).some((line) => line.startsWith('users: ')), "another account's row stays");
      assert.equal((await ops.call('rest', 'profile', {}, bob.bearer) as { ok: any }).ok?.id, bob.userId);
    }

    async function assertTokensFail(user: SignedInUser): Promise<void> {
      for (const protocol of ['rest', 'graphql', 'grpc'] as const) {
        const profile = await ops.send(protocol, 'profile', {}, user.bearer);
        assert.equal(profile.code, CODES.unauthenticated[protocol], `${protocol}: the access token fails at once`);
      }
      const session = await ops.send('rest', 'session', {}, { cookie: `cookie_session=${user.sessionCookie}` });
      assert.equal(session.ok, false, 'the session cookie fails');
      const validated = await ops.call('rest', 'validate_jwt_token', { token_type: 'refresh_token', token: user.refreshToken });
      assert.ok('error' in validated || validated.ok.is_valid === false, `the refresh token fails: ${JSON.stringify(validated)}`);
    }

    for (const protocol of ['rest', 'graphql', 'grpc'] as Protocol[]) {
      test(`delete_my_account over ${protocol} with a recent sign-in erases everything but the pseudonymous audit`, async () => {
        const dana = await fullAccount();
        const deleted = await ops.send(protocol, 'delete_my_account', {}, dana.bearer);
        assert.equal(deleted.ok, true, JSON.stringify(deleted.body));
        assert.match(deleted.body.message, /deleted/);
        await assertTokensFail(dana);
        await assertErased(dana);
        const own = await server.app.deps.storage.fork().find(AuditLog, { action: 'user.account_deleted', actorId: erasedUserPseudonym(server.app.deps.config, dana.userId) });
        assert.equal(own.length, 1, 'the deletion itself is audited under the pseudonym');
      });
    }

    test('delete_my_account after the step-up window: refused without the password, a wrong one counts, the right one erases', async () => {
      const dana = await fullAccount();
      clock.advance(STEP_UP_SECONDS + 60);
      const stale = await ops.send('grpc', 'delete_my_account', {}, dana.bearer);
      assert.equal(stale.code, CODES.forbidden.grpc);
      assert.match(stale.body.message, /sign in again/);
      const wrong = await ops.send('graphql', 'delete_my_account', { password: 'not-the-password' }, dana.bearer);
      assert.equal(wrong.code, CODES.invalid.graphql);
      assert.equal(await server.app.deps.limits.counted('login_failure', `email:${dana.email}`), 1, 'a wrong password spends the login failure budget');
      assert.equal((await ops.call('rest', 'profile', {}, dana.bearer) as { ok: any }).ok?.id, dana.userId, 'a refused deletion changes nothing');
      const deleted = await ops.send('rest', 'delete_my_account', { password: dana.password }, dana.bearer);
      assert.equal(deleted.ok, true, JSON.stringify(deleted.body));
      await assertErased(dana);
    });

    test('delete_my_account is refused to nobody and to the super-admin', async () => {
      for (const protocol of ['rest', 'graphql', 'grpc'] as Protocol[]) {
        assert.equal((await ops.send(protocol, 'delete_my_account', {}, 'anonymous')).code, CODES.unauthenticated[protocol]);
        assert.equal((await ops.send(protocol, 'delete_my_account', {}, 'admin')).ok, false);
      }
    });

    test("the super-admin's delete_user erases the same way, and its own audit entry names the pseudonym", async () => {
      const dana = await fullAccount();
      await admin.ok('delete_user', { id: dana.userId });
      await assertTokensFail(dana);
      await assertErased(dana);
      const pseudonym = erasedUserPseudonym(server.app.deps.config, dana.userId);
      const entry = await server.app.deps.storage.fork().findOne(AuditLog, { action: 'admin.delete_user', resourceId: pseudonym });
      assert.ok(entry, 'the admin entry names the account by its pseudonym');
    });
  });
}
