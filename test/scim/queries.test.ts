/**
 * SCIM list queries (RFC 7644 section 3.4.2): filters with every operator, logical operators, grouping and
 * value paths, case rules of RFC 7643 section 2.2 (userName ignores case, externalId does not), invalidFilter
 * for bad filters and unknown attributes; startIndex/count paging with the count cap; sortBy/sortOrder;
 * attributes and excludedAttributes.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from '../support/app.ts';
import { assertScimError, newUser, orgWithScim, scimClient } from './support.ts';

const ENTERPRISE = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';

describe('SCIM list queries', () => {
  let server: TestServer;
  let token: string;
  const scim = scimClient(() => server, () => token);
  const ids: Record<string, string> = {};
  const find = async (filter: string, extra = '') => {
    const answer = await scim('GET', `/Users?filter=${encodeURIComponent(filter)}${extra}`);
    assert.equal(answer.status, 200, `${filter}: ${JSON.stringify(answer.body)}`);
    return (answer.body.Resources as Array<{ userName: string }>).map((r) => r.userName).sort();
  };
  before(async () => {
    server = await startServer();
    token = (await orgWithScim(server, ['example.com', 'example.org', 'home.example'])).token;
    const people: Array<[string, Record<string, unknown>]> = [
      ['ann@example.com', { externalId: 'E-1', name: { givenName: 'Ann', familyName: 'Archer' }, title: 'Engineer', [ENTERPRISE]: { department: 'R&D' } }],
      ['bob@example.org', { externalId: 'e-2', name: { givenName: 'Bob', familyName: 'Baker' }, emails: [{ value: 'bob@example.org', type: 'work', primary: true }, { value: 'bob@home.example', type: 'home' }] }],
      ['cy@example.com', { externalId: 'E-3', name: { givenName: 'Cy', familyName: 'Cole' }, active: false, displayName: 'Cy C.' }],
    ];
    for (const [userName, extra] of people) {
      const created = await scim('POST', '/Users', newUser(userName, extra));
      assert.equal(created.status, 201, JSON.stringify(created.body));
      ids[userName] = created.body.id;
    }
  });
  after(async () => server?.close());

  test('comparison operators and the case rules of each attribute', async () => {
    assert.deepEqual(await find('userName eq "ANN@EXAMPLE.COM"'), ['ann@example.com'], 'userName ignores case');
    assert.deepEqual(await find('UserName Eq "ann@example.com"'), ['ann@example.com'], 'attribute names and operators ignore case');
    assert.deepEqual(await find('urn:ietf:params:scim:schemas:core:2.0:User:userName eq "ann@example.com"'), ['ann@example.com']);
    assert.deepEqual(await find('externalId eq "E-1"'), ['ann@example.com']);
    assert.deepEqual(await find('externalId eq "e-1"'), [], 'externalId is caseExact');
    assert.deepEqual(await find('userName ne "ann@example.com"'), ['bob@example.org', 'cy@example.com']);
    assert.deepEqual(await find('userName co "EXAMPLE.COM"'), ['ann@example.com', 'cy@example.com']);
    assert.deepEqual(await find('userName sw "b"'), ['bob@example.org']);
    assert.deepEqual(await find('userName ew ".org"'), ['bob@example.org']);
    assert.deepEqual(await find('name.familyName gt "Baker"'), ['cy@example.com']);
    assert.deepEqual(await find('name.familyName ge "Baker"'), ['bob@example.org', 'cy@example.com']);
    assert.deepEqual(await find('name.givenName lt "B"'), ['ann@example.com']);
    assert.deepEqual(await find('name.givenName le "Bob"'), ['ann@example.com', 'bob@example.org']);
    assert.deepEqual(await find('title pr'), ['ann@example.com']);
    assert.deepEqual(await find('displayName eq "cy c."'), ['cy@example.com']);
    assert.deepEqual(await find('active eq false'), ['cy@example.com']);
    assert.deepEqual(await find('active eq true'), ['ann@example.com', 'bob@example.org']);
    assert.deepEqual(await find('emails.value eq "BOB@home.example"'), ['bob@example.org']);
    assert.deepEqual(await find(`${ENTERPRISE}:department eq "r&d"`), ['ann@example.com']);
    assert.deepEqual(await find('meta.lastModified gt "2000-01-01T00:00:00Z"'), ['ann@example.com', 'bob@example.org', 'cy@example.com']);
    assert.deepEqual(await find('meta.created lt "2000-01-01T00:00:00Z"'), []);
    assert.deepEqual(await find(`id eq "${ids['cy@example.com']}"`), ['cy@example.com']);
  });

  test('logical operators, grouping, not, and value paths', async () => {
    assert.deepEqual(await find('userName sw "a" or userName sw "c"'), ['ann@example.com', 'cy@example.com']);
    assert.deepEqual(await find('userName co "example" and active eq true and not (title pr)'), ['bob@example.org']);
    assert.deepEqual(await find('(userName sw "a" or userName sw "b") and name.familyName eq "baker"'), ['bob@example.org']);
    assert.deepEqual(await find('emails[type eq "home" and value co "home"]'), ['bob@example.org']);
    assert.deepEqual(await find('emails[type eq "work"] and not (emails[type eq "home"])'), ['ann@example.com', 'cy@example.com']);
  });

  test('a malformed filter, an unknown attribute and a mistyped comparison are invalidFilter', async () => {
    for (const filter of ['userName eq', 'userName xx "a"', 'favouriteColour eq "blue"', 'active gt true', 'name eq "x"', 'meta.created gt "yesterday"', `userName eq "${'a'.repeat(3000)}"`]) {
      assertScimError(await scim('GET', `/Users?filter=${encodeURIComponent(filter)}`), 400, 'invalidFilter');
    }
  });

  test('paging with startIndex and count, the count cap, and sorting', async () => {
    const page = await scim('GET', '/Users?sortBy=userName&startIndex=2&count=1');
    assert.equal(page.body.totalResults, 3);
    assert.equal(page.body.itemsPerPage, 1);
    assert.equal(page.body.startIndex, 2);
    assert.deepEqual(page.body.Resources.map((r: any) => r.userName), ['bob@example.org']);
    const none = await scim('GET', '/Users?count=0');
    assert.deepEqual([none.body.totalResults, none.body.Resources.length], [3, 0]);
    const clamped = await scim('GET', '/Users?startIndex=-4&count=5000');
    assert.equal(clamped.body.startIndex, 1, 'startIndex below 1 counts as 1');
    assert.equal(clamped.body.itemsPerPage, 3);
    const down = await scim('GET', '/Users?sortBy=name.familyName&sortOrder=descending');
    assert.deepEqual(down.body.Resources.map((r: any) => r.userName), ['cy@example.com', 'bob@example.org', 'ann@example.com']);
    assertScimError(await scim('GET', '/Users?count=many'), 400, 'invalidValue');
  });

  test('attributes and excludedAttributes', async () => {
    const only = await scim('GET', `/Users?filter=${encodeURIComponent('userName eq "bob@example.org"')}&attributes=userName,name.givenName,emails.value`);
    const bob = only.body.Resources[0];
    assert.deepEqual(Object.keys(bob).sort(), ['emails', 'id', 'meta', 'name', 'schemas', 'userName']);
    assert.deepEqual(bob.name, { givenName: 'Bob' });
    assert.deepEqual(bob.emails, [{ value: 'bob@example.org' }, { value: 'bob@home.example' }]);
    const without = await scim('GET', `/Users/${ids['ann@example.com']}?excludedAttributes=emails,name.familyName,id`);
    assert.equal(without.body.emails, undefined);
    assert.deepEqual(without.body.name, { givenName: 'Ann' });
    assert.equal(without.body.id, ids['ann@example.com'], 'id is always returned');
    assertScimError(await scim('GET', '/Users?attributes=shoeSize'), 400, 'invalidPath');
  });
});
