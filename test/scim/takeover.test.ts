/**
 * Pre-account hijacking through SCIM (users/address-proof.ts, accounts/clean-takeover.ts). With email
 * verification off (the default) an attacker signs up ceo@<corp> with their own password; later the
 * organization verifies <corp>; SCIM POST /Users then must not hand the attacker's account to the
 * organization as it stands. The unproven account is taken over cleanly: the attacker's password, sessions
 * and tokens, factors, passkeys, recovery codes, social and SSO links, consents, phone number and profile go,
 * with the event user.taken_over and an audit entry. An account whose address was proven is linked and keeps
 * its password. An unproven account outside the organization's verified domains is a 409 uniqueness error
 * (RFC 7644 section 3.3), even when it is a member.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { startServer, type TestServer } from '../support/app.ts';
import { restClient } from '../support/rest-client.ts';
import { signedUpUser } from '../support/signed-in-user.ts';
import { IdentityClaim, User, claimId } from '../../server/modules/users/index.ts';
import { MfaFactor, RecoveryCode } from '../../server/modules/mfa/index.ts';
import { WebauthnCredential } from '../../server/modules/webauthn/webauthn-credential.entity.ts';
import { SocialIdentity } from '../../server/modules/social/social.entities.ts';
import { OrgSsoIdentity } from '../../server/modules/org-sso/org-sso.entities.ts';
import { Consent } from '../../server/modules/oauth/consent.entity.ts';
import { Session } from '../../server/modules/sessions/session.entity.ts';
import { EventOutbox } from '../../server/modules/events/event-outbox.entity.ts';
import { AuditLog } from '../../server/modules/audit/index.ts';
import { admin, assertScimError, newUser, orgWithScim, profileStatusOf, scimClient } from './support.ts';

const PASSWORD = 'Str0ng!attacker-pass';

describe('SCIM provisioning and addresses nobody proved', () => {
  let server: TestServer;
  let org: { orgId: string; token: string };
  const scim = scimClient(() => server, () => org.token);
  const em = () => server.app.deps.storage.fork();
  const post = (path: string, body: unknown) => restClient(server).post(path, body);
  const profileStatus = (accessToken: string) => profileStatusOf(server, accessToken);
  const signup = async (email: string, extra: Record<string, unknown> = {}): Promise<{ access_token: string; user: { id: string } }> =>
    (await signedUpUser(server, { email, password: PASSWORD, profile: extra })).signup;

  before(async () => {
    server = await startServer();
    org = await orgWithScim(server, ['example.com']);
  });
  after(async () => server?.close());

  /** Everything an attacker could have set up on the account they registered. */
  async function plantWaysIn(userId: string): Promise<void> {
    const work = em();
    const now = new Date();
    work.create(MfaFactor, { id: randomUUID(), userId, method: 'totp', secretSealed: 'sealed', lastUsedStep: null, verifiedAt: now, createdAt: now, updatedAt: now });
    work.create(RecoveryCode, { id: randomUUID(), userId, digest: 'a'.repeat(64), usedAt: null, createdAt: now });
    work.create(WebauthnCredential, {
      id: randomUUID(), userId, credentialKey: randomBytes(32).toString('hex'), credentialId: randomBytes(16).toString('base64url'), publicKey: 'cose',
      signCount: 0, transports: [], deviceType: 'singleDevice', backedUp: false, name: 'attacker key', createdAt: now, updatedAt: now, lastUsedAt: null,
    });
    work.create(SocialIdentity, { id: `github:${userId}`, provider: 'github', subject: userId, userId, createdAt: now });
    work.create(OrgSsoIdentity, { id: `conn:${userId}`, orgId: randomUUID(), connectionId: 'conn', subject: userId, userId, createdAt: now });
    work.create(Consent, { id: randomUUID(), userId, clientId: 'third-party', scopes: ['openid'], createdAt: now, updatedAt: now });
    const user = await work.findOneOrFail(User, { id: userId });
    user.enrolledMfaMethods = ['totp', 'webauthn'];
    user.isMultiFactorAuthEnabled = true;
    await work.flush();
  }

  test('an unproven account in a newly verified domain is taken over cleanly: the attacker\'s password no longer signs in', async () => {
    const domain = `corp-${randomBytes(3).toString('hex')}.example`;
    const ceo = `ceo@${domain}`;
    const phone = `+1555${String(Date.now()).slice(-7)}`;
    const attacker = await signup(ceo, { phone_number: phone, given_name: 'Mallory', app_data: { plan: 'owned' } });
    assert.ok((await post('/v1/login', { email: ceo, password: PASSWORD })).body.access_token, 'the attacker signs in before');
    await plantWaysIn(attacker.user.id);

    assert.equal((await admin(server, 'add_verified_org_domain', { org_id: org.orgId, domain })).status, 200);
    const provisioned = await scim('POST', '/Users', newUser(ceo, { name: { givenName: 'Carla', familyName: 'Exec' } }));
    assert.equal(provisioned.status, 201, JSON.stringify(provisioned.body));
    assert.equal(provisioned.body.id, attacker.user.id, 'the account (and its address) is the organization\'s now');

    const refused = await post('/v1/login', { email: ceo, password: PASSWORD });
    assert.notEqual(refused.status, 200, `the attacker's password no longer signs in: ${JSON.stringify(refused.body)}`);
    assert.equal(await profileStatus(attacker.access_token), 401, 'the attacker\'s live token stops at once');

    const work = em();
    const row = await work.findOneOrFail(User, { id: attacker.user.id });
    assert.equal(row.passwordHash, null);
    assert.equal(row.phoneNumber, null, 'the attacker\'s number cannot reset a password any more');
    assert.equal(await work.count(IdentityClaim, { id: claimId('phone', phone) }), 0, 'and is free for its owner');
    assert.equal(row.emailVerifiedAt, null);
    assert.deepEqual(row.enrolledMfaMethods, []);
    assert.equal(row.isMultiFactorAuthEnabled, null);
    assert.equal(row.givenName, 'Carla', 'the profile is the provider\'s');
    assert.equal(row.appData, null);
    for (const entity of [MfaFactor, RecoveryCode, WebauthnCredential, SocialIdentity, OrgSsoIdentity, Consent] as const) {
      assert.equal(await work.count(entity as never, { userId: row.id }), 0, `no ${String((entity as { meta?: { className?: string } }).meta?.className ?? 'row')} of the attacker is left`);
    }
    assert.equal(await work.count(Session, { userId: row.id, revokedAt: null }), 0, 'no live session');
    const events = await work.find(EventOutbox, { eventName: 'user.taken_over' });
    assert.ok(events.some((e) => (e.payload.user as { id: string }).id === row.id && e.payload.org_id === org.orgId && e.payload.via === 'scim'));
    const entry = await work.findOneOrFail(AuditLog, { action: 'user.account_taken_over', resourceId: row.id });
    assert.equal(entry.actorType, 'client');
    assert.equal(entry.actorId, org.orgId);
    assert.equal(entry.ipAddress, '127.0.0.1');
    assert.deepEqual(JSON.parse(entry.metadata), { org_id: org.orgId, via: 'scim' });
  });

  test('an account whose address was proven is linked as it is and keeps its password', async () => {
    const domain = `proven-${randomBytes(3).toString('hex')}.example`;
    const email = `cfo@${domain}`;
    const owner = await signup(email, { given_name: 'Owner' });
    assert.equal((await admin(server, 'update_user', { id: owner.user.id, email_verified: true })).status, 200);
    assert.equal((await admin(server, 'add_verified_org_domain', { org_id: org.orgId, domain })).status, 200);
    const linked = await scim('POST', '/Users', newUser(email));
    assert.equal(linked.status, 201, JSON.stringify(linked.body));
    assert.equal(linked.body.id, owner.user.id);
    assert.equal((await post('/v1/login', { email, password: PASSWORD })).status, 200, 'the owner still signs in');
    assert.equal(await profileStatus(owner.access_token), 200);
    const row = await em().findOneOrFail(User, { id: owner.user.id });
    assert.notEqual(row.passwordHash, null);
    assert.equal(row.givenName, 'Owner');
    assert.equal(await em().count(AuditLog, { action: 'user.account_taken_over', resourceId: row.id }), 0);
  });

  test('an unproven account outside the verified domains is a uniqueness error, even for a member; a proven member is linked', async () => {
    const unproven = `member-${randomBytes(3).toString('hex')}@elsewhere.example`;
    const member = await signup(unproven);
    assert.equal((await admin(server, 'add_org_member', { org_id: org.orgId, user_id: member.user.id })).status, 200);
    assertScimError(await scim('POST', '/Users', newUser(unproven)), 409, 'uniqueness');
    assert.equal((await post('/v1/login', { email: unproven, password: PASSWORD })).status, 200, 'the refused account is left alone');

    const proven = `proven-member-${randomBytes(3).toString('hex')}@elsewhere.example`;
    const provenMember = await signup(proven);
    assert.equal((await admin(server, 'update_user', { id: provenMember.user.id, email_verified: true })).status, 200);
    assert.equal((await admin(server, 'add_org_member', { org_id: org.orgId, user_id: provenMember.user.id })).status, 200);
    const linked = await scim('POST', '/Users', newUser(proven));
    assert.equal(linked.status, 201, JSON.stringify(linked.body));
    assert.equal(linked.body.id, provenMember.user.id);
  });
});
