/**
 * SCIM Users (RFC 7644 sections 3.3 to 3.6, 3.12, 3.14): create, read, replace, delete; ETags and If-Match;
 * error bodies with scimType; bearer authentication; userName unique per organization ignoring case; the
 * takeover rule (an existing account outside the organization is refused unless its domain is verified for
 * it); `active: false` stopping sign-in and live tokens at once and `active: true` restoring them; DELETE
 * removing the membership and deprovisioning without deleting the account.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { startServer, type TestServer } from '../support/app.ts';
import { restClient } from '../support/rest-client.ts';
import { signedUpUser } from '../support/signed-in-user.ts';
import { User } from '../../server/modules/users/index.ts';
import { OrgMember } from '../../server/modules/organizations/index.ts';
import { admin, assertScimError, newUser, orgWithScim, PATCH_OP, profileStatusOf, scimClient, USER_SCHEMA } from './support.ts';

const PASSWORD = 'Str0ng!scim-user-pass';

describe('SCIM Users', () => {
  let server: TestServer;
  let org: { orgId: string; token: string };
  const scim = scimClient(() => server, () => org.token);
  const post = (path: string, body: unknown) => restClient(server).post(path, body);
  const profileStatus = (accessToken: string) => profileStatusOf(server, accessToken);
  before(async () => {
    server = await startServer();
    org = await orgWithScim(server, ['example.com']);
  });
  after(async () => server?.close());

  test('bearer authentication: none, a wrong token and a malformed one are 401 with a SCIM body', async () => {
    const none = await fetch(`${server.baseUrl}/scim/v2/Users`);
    assert.equal(none.status, 401);
    assert.match(none.headers.get('www-authenticate') ?? '', /^Bearer/);
    assertScimError({ status: none.status, headers: none.headers, body: await none.json() }, 401);
    for (const token of [`scim_${randomBytes(32).toString('base64url')}`, 'not-a-scim-token', `scim_${'A'.repeat(500)}`]) {
      const answer = await scimClient(() => server, () => token)('GET', '/Users');
      assertScimError(answer, 401);
    }
  });

  test("only an organization's SCIM token is accepted: a user's access token and the admin secret are 401, and another organization's token sees only its own members", async () => {
    const user = await signedUpUser(server, { email: `audience-${randomBytes(3).toString('hex')}@example.com`, password: PASSWORD, verified: true });
    for (const token of [user.accessToken, 'test-admin-secret']) assertScimError(await scimClient(() => server, () => token)('GET', '/Users'), 401);
    const provisioned = await scim('POST', '/Users', newUser(`audience-${randomBytes(3).toString('hex')}@example.com`));
    assert.equal(provisioned.status, 201);
    const other = await orgWithScim(server, ['other-audience.example']);
    const otherScim = scimClient(() => server, () => other.token);
    assertScimError(await otherScim('GET', `/Users/${provisioned.body.id as string}`), 404);
    const listed = await otherScim('GET', '/Users');
    assert.equal(listed.status, 200);
    assert.equal(listed.body.totalResults, 0);
  });

  test('create, read, replace and delete a user; meta, ETag and Location', async () => {
    const created = await scim('POST', '/Users', newUser('Carol@Example.com', { externalId: 'ext-carol', title: 'Engineer' }));
    assert.equal(created.status, 201, JSON.stringify(created.body));
    assert.match(created.headers.get('content-type') ?? '', /^application\/scim\+json/);
    const id = created.body.id;
    assert.deepEqual(created.body.schemas, [USER_SCHEMA]);
    assert.equal(created.body.userName, 'Carol@Example.com');
    assert.equal(created.body.externalId, 'ext-carol');
    assert.equal(created.body.title, 'Engineer');
    assert.equal(created.body.active, true);
    assert.equal(created.body.meta.resourceType, 'User');
    assert.equal(created.body.meta.location, `http://127.0.0.1:8080/scim/v2/Users/${id}`);
    assert.equal(created.headers.get('location'), created.body.meta.location);
    assert.equal(created.headers.get('etag'), 'W/"1"');
    assert.equal(created.body.meta.version, 'W/"1"');
    assert.equal('password' in created.body, false);

    const em = server.app.deps.storage.fork();
    const row = await em.findOneOrFail(User, { id });
    assert.equal(row.email, 'carol@example.com', 'userName that is an address becomes the account email');
    assert.equal(row.passwordHash, null, 'a provisioned account has no password');
    assert.equal(row.emailVerifiedAt, null, "the provider's word verifies no mailbox");
    assert.equal(row.scimExternalId, 'ext-carol');
    assert.equal(row.givenName, 'Given');
    assert.ok(await em.findOne(OrgMember, { orgId: org.orgId, userId: id }), 'a provisioned user joins the organization');

    const read = await scim('GET', `/Users/${id}`);
    assert.equal(read.status, 200);
    assert.deepEqual(read.body, created.body);
    const unchanged = await scim('GET', `/Users/${id}`, undefined, { 'if-none-match': 'W/"1"' });
    assert.equal(unchanged.status, 304);

    const replaced = await scim('PUT', `/Users/${id}`, { schemas: [USER_SCHEMA], userName: 'carol@example.com', externalId: 'ext-carol', name: { givenName: 'Caroline', familyName: 'Doe' }, active: true }, { 'if-match': 'W/"1"' });
    assert.equal(replaced.status, 200, JSON.stringify(replaced.body));
    assert.equal(replaced.body.meta.version, 'W/"2"');
    assert.equal(replaced.body.title, undefined, 'PUT replaces: an attribute left out is gone');
    assert.equal(replaced.body.name.givenName, 'Caroline');

    assertScimError(await scim('PUT', `/Users/${id}`, newUser('carol@example.com'), { 'if-match': 'W/"1"' }), 412);
    assertScimError(await scim('PATCH', `/Users/${id}`, { schemas: [PATCH_OP], Operations: [{ op: 'replace', path: 'title', value: 'x' }] }, { 'if-match': 'W/"7"' }), 412);
    assertScimError(await scim('DELETE', `/Users/${id}`, undefined, { 'if-match': '"1"' }), 412);

    const deleted = await scim('DELETE', `/Users/${id}`, undefined, { 'if-match': '*' });
    assert.equal(deleted.status, 204);
    assertScimError(await scim('GET', `/Users/${id}`), 404);
    assertScimError(await scim('DELETE', `/Users/${id}`), 404);
    const after = await server.app.deps.storage.fork().findOneOrFail(User, { id });
    assert.ok(after.revokedAt, 'DELETE deprovisions the account it created');
    assert.equal(await server.app.deps.storage.fork().count(OrgMember, { orgId: org.orgId, userId: id }), 0, 'and removes it from the organization');
  });

  test('errors: uniqueness ignoring case, missing userName, no address, bad values, unknown id, bad JSON', async () => {
    assert.equal((await scim('POST', '/Users', newUser('dup@example.com'))).status, 201);
    assertScimError(await scim('POST', '/Users', newUser('DUP@example.com')), 409, 'uniqueness');
    assertScimError(await scim('POST', '/Users', { schemas: [USER_SCHEMA], name: { givenName: 'x' } }), 400, 'invalidValue');
    assertScimError(await scim('POST', '/Users', { schemas: [USER_SCHEMA], userName: 'no-address' }), 400, 'invalidValue');
    assertScimError(await scim('POST', '/Users', newUser('bool@example.com', { active: 'maybe' })), 400, 'invalidValue');
    assertScimError(await scim('POST', '/Users', newUser('str@example.com', { displayName: { nested: true } })), 400, 'invalidValue');
    assertScimError(await scim('GET', '/Users/00000000-0000-0000-0000-000000000000'), 404);
    assertScimError(await scim('POST', '/Users', '{"userName": '), 400, 'invalidSyntax');
    assertScimError(await scim('POST', '/Users', JSON.stringify([1, 2])), 400, 'invalidSyntax');
    // A non-email userName works with an address among the emails; it is kept as the preferred username.
    const handle = await scim('POST', '/Users', { schemas: [USER_SCHEMA], userName: 'jdoe', emails: [{ value: 'jdoe@example.com', primary: 'True' }] });
    assert.equal(handle.status, 201, JSON.stringify(handle.body));
    const row = await server.app.deps.storage.fork().findOneOrFail(User, { id: handle.body.id });
    assert.equal(row.email, 'jdoe@example.com');
    assert.equal(row.preferredUsername, 'jdoe');
    // Unknown attributes are ignored (RFC 7644 section 3.3), and so is a password.
    const extra = await scim('POST', '/Users', newUser('extra@example.com', { favouriteColour: 'blue', password: 'Secret1!' }));
    assert.equal(extra.status, 201);
    assert.equal(extra.body.favouriteColour, undefined);
    assert.equal((await server.app.deps.storage.fork().findOneOrFail(User, { id: extra.body.id })).passwordHash, null);
  });

  test('application/json bodies are accepted too, and a body over the limit is refused', async () => {
    const res = await fetch(`${server.baseUrl}/scim/v2/Users`, { method: 'POST', headers: { authorization: `Bearer ${org.token}`, 'content-type': 'application/json' }, body: JSON.stringify(newUser('json@example.com')) });
    assert.equal(res.status, 201);
    const huge = await scim('POST', '/Users', newUser('huge@example.com', { title: 'x'.repeat(3 * 1024 * 1024) }));
    assertScimError(huge, 413);
  });

  test('no account is made for a new address outside the verified domains, and a governed address moves only within them', async () => {
    const outside = `squat-${randomBytes(3).toString('hex')}@gmail.example`;
    assertScimError(await scim('POST', '/Users', newUser(outside)), 400, 'invalidValue');
    assert.equal(await server.app.deps.storage.fork().count(User, { email: outside }), 0, 'no account was made');
    const staff = await scim('POST', '/Users', newUser(`mover-${randomBytes(3).toString('hex')}@example.com`));
    assert.equal(staff.status, 201);
    const moved = await scim('PATCH', `/Users/${staff.body.id}`, { schemas: [PATCH_OP], Operations: [{ op: 'replace', path: 'userName', value: outside }] });
    assertScimError(moved, 400, 'invalidValue');
    assert.equal((await server.app.deps.storage.fork().findOneOrFail(User, { id: staff.body.id })).email, staff.body.userName.toLowerCase());
  });

  test('an existing account outside the organization is refused; a member is linked; a verified domain links and governs', async () => {
    // Only accounts whose address was proven are linked (takeover.test.ts has those nobody proved).
    const email = `stranger-${randomBytes(3).toString('hex')}@elsewhere.example`;
    await signedUpUser(server, { email, password: PASSWORD, verified: true });
    assertScimError(await scim('POST', '/Users', newUser(email)), 409, 'uniqueness');

    const memberEmail = `member-${randomBytes(3).toString('hex')}@elsewhere.example`;
    const member = await signedUpUser(server, { email: memberEmail, password: PASSWORD, verified: true });
    await admin(server, 'add_org_member', { org_id: org.orgId, user_id: member.userId, roles: ['editor'] });
    const linked = await scim('POST', '/Users', newUser(memberEmail));
    assert.equal(linked.status, 201);
    assert.equal(linked.body.id, member.userId, 'the member account is linked, not duplicated');
    // Not governed: active false takes the membership away but leaves the account's own access alone.
    const login = await post('/v1/login', { email: memberEmail, password: PASSWORD });
    const off = await scim('PATCH', `/Users/${linked.body.id}`, { schemas: [PATCH_OP], Operations: [{ op: 'replace', path: 'active', value: false }] });
    assert.equal(off.status, 200);
    assert.equal(await profileStatus(login.body.access_token), 200);
    assert.equal(await server.app.deps.storage.fork().count(OrgMember, { orgId: org.orgId, userId: linked.body.id }), 0);
    await scim('PATCH', `/Users/${linked.body.id}`, { schemas: [PATCH_OP], Operations: [{ op: 'replace', path: 'active', value: true }] });
    assert.equal(await server.app.deps.storage.fork().count(OrgMember, { orgId: org.orgId, userId: linked.body.id }), 1);

    const domain = `acme-${randomBytes(3).toString('hex')}.com`;
    assert.equal((await admin(server, 'add_verified_org_domain', { org_id: org.orgId, domain })).status, 200);
    const staff = `staff@${domain}`;
    await signedUpUser(server, { email: staff, password: PASSWORD, verified: true });
    const governed = await scim('POST', '/Users', newUser(staff));
    assert.equal(governed.status, 201, JSON.stringify(governed.body));

    const session = await post('/v1/login', { email: staff, password: PASSWORD });
    assert.equal(session.status, 200);
    assert.equal(await profileStatus(session.body.access_token), 200);
    const disabled = await scim('PATCH', `/Users/${governed.body.id}`, { schemas: [PATCH_OP], Operations: [{ op: 'Replace', path: 'active', value: 'False' }] });
    assert.equal(disabled.status, 200);
    assert.equal(disabled.body.active, false);
    assert.equal(await profileStatus(session.body.access_token), 401, 'a live token stops at once');
    assert.notEqual((await post('/v1/login', { email: staff, password: PASSWORD })).status, 200, 'sign-in is refused');
    const enabled = await scim('PATCH', `/Users/${governed.body.id}`, { schemas: [PATCH_OP], Operations: [{ op: 'replace', value: { active: true } }] });
    assert.equal(enabled.body.active, true);
    assert.equal((await post('/v1/login', { email: staff, password: PASSWORD })).status, 200, 'active true restores sign-in');
  });
});
