/**
 * SCIM PATCH (RFC 7644 section 3.5.2): add, replace and remove with and without path, sub-attribute and
 * value-filter paths, the variants Entra ID and Okta send (capitalised op names, "True"/"False" strings, a
 * path-less object with dotted and schema-qualified keys), the errors (invalidPath, noTarget, invalidSyntax,
 * mutability, tooMany), and that a failing PATCH changes nothing.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from '../support/app.ts';
import { User } from '../../server/modules/users/index.ts';
import { assertScimError, newUser, orgWithScim, PATCH_OP, scimClient } from './support.ts';

const ENTERPRISE = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';

describe('SCIM PATCH', () => {
  let server: TestServer;
  let token: string;
  const scim = scimClient(() => server, () => token);
  const patch = (id: string, ...ops: unknown[]) => scim('PATCH', `/Users/${id}`, { schemas: [PATCH_OP], Operations: ops });
  let seq = 0;
  const fresh = async (extra: Record<string, unknown> = {}) => {
    seq += 1;
    const created = await scim('POST', '/Users', newUser(`patch${seq}@example.com`, extra));
    assert.equal(created.status, 201, JSON.stringify(created.body));
    return created.body.id as string;
  };
  before(async () => {
    server = await startServer();
    token = (await orgWithScim(server, ['example.com', 'work.example', 'home.example', 'other.example', 'x.example'])).token;
  });
  after(async () => server?.close());

  test('replace and add with a path, simple and sub-attribute, capitalised op names', async () => {
    const id = await fresh();
    const answer = await patch(id,
      { op: 'Replace', path: 'name.givenName', value: 'Grace' },
      { op: 'replace', path: 'name.familyName', value: 'Hopper' },
      { op: 'Add', path: 'title', value: 'Rear Admiral' },
      { op: 'add', path: `${ENTERPRISE}:department`, value: 'Navy' },
      { op: 'ADD', path: 'displayName', value: 'Amazing Grace' });
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.deepEqual(answer.body.name, { givenName: 'Grace', familyName: 'Hopper' });
    assert.equal(answer.body.title, 'Rear Admiral');
    assert.equal(answer.body[ENTERPRISE].department, 'Navy');
    assert.ok(answer.body.schemas.includes(ENTERPRISE));
    assert.equal(answer.body.meta.version, 'W/"2"', 'one PATCH, one new version');
    assert.equal(answer.headers.get('etag'), 'W/"2"');
    const row = await server.app.deps.storage.fork().findOneOrFail(User, { id });
    assert.deepEqual([row.givenName, row.familyName], ['Grace', 'Hopper'], 'the account follows');
  });

  test('path-less replace with a dotted key object (Entra ID) and an active flag (Okta)', async () => {
    const id = await fresh();
    const answer = await patch(id, { op: 'Replace', value: { 'name.givenName': 'Ada', 'name.familyName': 'Lovelace', [`${ENTERPRISE}:employeeNumber`]: '1815', active: 'False', unknownThing: 1 } });
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.deepEqual(answer.body.name, { givenName: 'Ada', familyName: 'Lovelace' });
    assert.equal(answer.body[ENTERPRISE].employeeNumber, '1815');
    assert.equal(answer.body.active, false);
    const okta = await patch(id, { op: 'replace', value: { active: true, name: { givenName: 'Augusta' } } });
    assert.equal(okta.body.active, true);
    assert.deepEqual(okta.body.name, { givenName: 'Augusta', familyName: 'Lovelace' }, 'a complex value merges its sub-attributes');
    const nested = await patch(id, { op: 'add', value: { [ENTERPRISE]: { department: 'Maths' } } });
    assert.equal(nested.body[ENTERPRISE].department, 'Maths');
    assert.equal(nested.body[ENTERPRISE].employeeNumber, '1815');
  });

  test('value-filter paths on emails: replace one value, create the target Entra ID names, remove by filter', async () => {
    const id = await fresh({ emails: [{ value: 'a@work.example', type: 'work', primary: true }, { value: 'a@home.example', type: 'home' }] });
    const work = await patch(id, { op: 'replace', path: 'emails[type eq "work"].value', value: 'a2@work.example' });
    assert.deepEqual(work.body.emails, [{ value: 'a2@work.example', type: 'work', primary: true }, { value: 'a@home.example', type: 'home' }]);
    const other = await patch(id, { op: 'replace', path: 'emails[type eq "other"].value', value: 'a@other.example' });
    assert.deepEqual(other.body.emails.at(-1), { type: 'other', value: 'a@other.example' });
    const removed = await patch(id, { op: 'remove', path: 'emails[type eq "home"]' });
    assert.deepEqual(removed.body.emails.map((e: any) => e.type), ['work', 'other']);
    const added = await patch(id, { op: 'add', path: 'emails', value: [{ value: 'a@x.example', type: 'x' }, { value: 'A2@work.example', type: 'dup' }] });
    assert.equal(added.body.emails.length, 3, 'add to a multi-valued attribute appends, skipping a value already there');
    const subRemoved = await patch(id, { op: 'remove', path: 'emails[type eq "x"].type' });
    assert.ok(subRemoved.body.emails.some((e: any) => e.value === 'a@x.example' && e.type === undefined));
    const replacedAll = await patch(id, { op: 'replace', path: 'emails', value: [{ value: 'only@example.com', primary: true }] });
    assert.deepEqual(replacedAll.body.emails, [{ value: 'only@example.com', primary: true }]);
    const cleared = await patch(id, { op: 'remove', path: 'title' }, { op: 'remove', path: 'name.givenName' });
    assert.equal(cleared.body.title, undefined);
    assert.equal(cleared.body.name.givenName, undefined);
  });

  test('errors: unknown paths, no target, bad ops, read-only attributes, too many operations; nothing changes', async () => {
    const id = await fresh({ title: 'Before' });
    assertScimError(await patch(id, { op: 'replace', path: 'shoeSize', value: 44 }), 400, 'invalidPath');
    assertScimError(await patch(id, { op: 'replace', path: 'emails[type eq "work"', value: 'x' }), 400, 'invalidPath');
    assertScimError(await patch(id, { op: 'replace', path: 'title[type eq "x"]', value: 'x' }), 400, 'invalidPath');
    assertScimError(await patch(id, { op: 'replace', path: 'emails[value co "nowhere"].value', value: 'x' }), 400, 'noTarget');
    assertScimError(await patch(id, { op: 'remove' }), 400, 'noTarget');
    assertScimError(await patch(id, { op: 'move', path: 'title', value: 'x' }), 400, 'invalidSyntax');
    assertScimError(await patch(id, { op: 'replace', path: 'title' }), 400, 'invalidValue');
    assertScimError(await patch(id, { op: 'replace', path: 'id', value: 'mine' }), 400, 'mutability');
    assertScimError(await patch(id, { op: 'replace', path: 'emails[type eq ]', value: 'x' }), 400, 'invalidFilter');
    assertScimError(await scim('PATCH', `/Users/${id}`, { Operations: [{ op: 'replace', path: 'title', value: 'x' }] }), 400, 'invalidSyntax');
    assertScimError(await patch(id, ...Array.from({ length: 201 }, () => ({ op: 'replace', path: 'title', value: 'x' }))), 400, 'tooMany');
    assertScimError(await patch(id, { op: 'replace', path: 'title', value: 'After' }, { op: 'replace', path: 'active', value: 'perhaps' }), 400, 'invalidValue');
    const read = await scim('GET', `/Users/${id}`);
    assert.equal(read.body.title, 'Before', 'a failing PATCH leaves the resource as it was');
    assert.equal(read.body.meta.version, 'W/"1"');
  });

  test('PATCH of userName keeps it unique in the organization', async () => {
    const first = await fresh();
    const second = await fresh();
    const firstName = (await scim('GET', `/Users/${first}`)).body.userName;
    assertScimError(await patch(second, { op: 'replace', path: 'userName', value: firstName.toUpperCase() }), 409, 'uniqueness');
  });
});
