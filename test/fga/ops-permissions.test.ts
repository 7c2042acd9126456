/**
 * check_permissions and list_permissions (docs/operations.md, docs/api-overview.md#authentication subject rule, docs/limits.md limits) over
 * REST, GraphQL and gRPC against a real server: results in order echoing each pair, contextual tuples used
 * once and never stored, the subject rule for users and super-admins, 1 to 100 checks, and the 1,000-entry
 * cap of list_permissions with `truncated`.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { ADMIN, PROTOCOLS, kindOf, signedInUser, startFgaServer, type FgaTestServer, type TestUser } from './ops-support.ts';

const MODEL = `model
  schema 1.1
type user
type group
  relations
    define member: [user]
type folder
  relations
    define viewer: [user]
type document
  relations
    define parent: [folder]
    define owner: [user]
    define editor: [user, group#member] or owner
    define viewer: [user, user:*] or editor or viewer from parent
`;

describe('check_permissions and list_permissions', () => {
  let fga: FgaTestServer;
  let ada: TestUser;
  let bob: TestUser;
  before(async () => {
    fga = await startFgaServer();
    ada = await signedInUser(fga);
    bob = await signedInUser(fga);
    await fga.ok('fga_write_model', { dsl: MODEL });
    await fga.ok('fga_write_tuples', {
      tuples: [
        { user: ada.subject, relation: 'owner', object: 'document:plan' },
        { user: ada.subject, relation: 'member', object: 'group:eng' },
        { user: 'group:eng#member', relation: 'editor', object: 'document:spec' },
        { user: 'folder:shared', relation: 'parent', object: 'document:notes' },
        { user: ada.subject, relation: 'viewer', object: 'folder:shared' },
        { user: 'user:*', relation: 'viewer', object: 'document:public' },
        { user: bob.subject, relation: 'viewer', object: 'document:bobs' },
      ],
    });
  });
  after(async () => {
    await fga?.close();
  });

  const checks = [
    { relation: 'viewer', object: 'document:plan' },
    { relation: 'editor', object: 'document:spec' },
    { relation: 'owner', object: 'document:spec' },
    { relation: 'viewer', object: 'document:notes' },
    { relation: 'viewer', object: 'document:public' },
    { relation: 'viewer', object: 'document:bobs' },
  ];
  const expected = [true, true, false, true, true, false];

  test('the caller is the subject; results come in order and echo each pair, on every protocol', async () => {
    for (const protocol of PROTOCOLS) {
      for (const credentials of [ada.bearer, ada.cookie]) {
        const outcome = await fga.call(protocol, 'check_permissions', { checks }, credentials);
        assert.deepEqual(outcome, { ok: { results: checks.map((c, i) => ({ ...c, allowed: expected[i] })) } }, protocol);
      }
    }
    const asBob = await fga.call('rest', 'check_permissions', { checks }, bob.bearer);
    assert.deepEqual(asBob, { ok: { results: checks.map((c, i) => ({ ...c, allowed: i === 4 || i === 5 })) } });
  });

  test('contextual tuples count for their own check only and are never stored', async () => {
    const contextual = { user: ada.subject, relation: 'owner', object: 'document:draft' };
    for (const protocol of PROTOCOLS) {
      const outcome = await fga.call(protocol, 'check_permissions', {
        checks: [
          { relation: 'viewer', object: 'document:draft', contextual_tuples: [contextual] },
          { relation: 'viewer', object: 'document:draft' },
        ],
      }, ada.bearer);
      assert.deepEqual(outcome, {
        ok: { results: [{ relation: 'viewer', object: 'document:draft', allowed: true }, { relation: 'viewer', object: 'document:draft', allowed: false }] },
      }, protocol);
    }
    assert.deepEqual(await fga.ok('fga_read_tuples', { object: 'document:draft' }), { tuples: [] });
    const invalid = { user: 'user:*', relation: 'owner', object: 'document:draft' };
    for (const protocol of PROTOCOLS) {
      const outcome = await fga.call(protocol, 'check_permissions', {
        checks: [{ relation: 'viewer', object: 'document:plan' }, { relation: 'viewer', object: 'document:draft', contextual_tuples: [invalid] }],
      }, ada.bearer);
      assert.equal(kindOf(outcome), 'invalid_argument', protocol);
      assert.match((outcome as { message: string }).message, /checks\[1\]\.contextual_tuples\[0\]/);
    }
  });

  test('a relation or type the model lacks is invalid_argument naming the check', async () => {
    for (const protocol of PROTOCOLS) {
      for (const bad of [{ relation: 'admin', object: 'document:plan' }, { relation: 'viewer', object: 'project:x' }]) {
        const outcome = await fga.call(protocol, 'check_permissions', { checks: [checks[0], bad] }, ada.bearer);
        assert.equal(kindOf(outcome), 'invalid_argument', `${protocol}: ${JSON.stringify(outcome)}`);
        assert.match((outcome as { message: string }).message, /checks\[1\]/);
      }
    }
  });

  test('subject rule: an explicit user is honoured for the caller itself (bare or typed) and for super-admins only', async () => {
    const one = [{ relation: 'viewer', object: 'document:plan' }];
    for (const protocol of PROTOCOLS) {
      for (const user of [ada.user.id, ada.subject]) {
        assert.deepEqual(await fga.call(protocol, 'check_permissions', { checks: one, user }, ada.bearer), {
          ok: { results: [{ ...one[0], allowed: true }] },
        }, `${protocol} ${user}`);
      }
      for (const user of [bob.user.id, bob.subject, 'group:eng#member', 'agent:x']) {
        const outcome = await fga.call(protocol, 'check_permissions', { checks: one, user }, ada.bearer);
        assert.equal(kindOf(outcome), 'permission_denied', `${protocol} ${user}`);
        const listed = await fga.call(protocol, 'list_permissions', { user }, ada.bearer);
        assert.equal(kindOf(listed), 'permission_denied', `${protocol} ${user}`);
      }
      // Super-admins name the subject, bare or typed, and must name one.
      assert.deepEqual(await fga.call(protocol, 'check_permissions', { checks: one, user: ada.user.id }, ADMIN), {
        ok: { results: [{ ...one[0], allowed: true }] },
      }, protocol);
      assert.deepEqual(await fga.call(protocol, 'check_permissions', { checks: one, user: bob.subject }, ADMIN), {
        ok: { results: [{ ...one[0], allowed: false }] },
      }, protocol);
      assert.equal(kindOf(await fga.call(protocol, 'check_permissions', { checks: one }, ADMIN)), 'invalid_argument', protocol);
      assert.equal(kindOf(await fga.call(protocol, 'check_permissions', { checks: one }, {})), 'unauthenticated', protocol);
      assert.equal(kindOf(await fga.call(protocol, 'list_permissions', {}, {})), 'unauthenticated', protocol);
      const wrongSecret = { 'x-service-admin-secret': 'wrong' };
      assert.equal(kindOf(await fga.call(protocol, 'check_permissions', { checks: one, user: ada.subject }, wrongSecret)), 'unauthenticated', protocol);
    }
  });

  test('1 to 100 checks per request: 0 and 101 are invalid_argument, 100 answers 100 results', async () => {
    const hundred = Array.from({ length: 100 }, (_, i) => ({ relation: 'viewer', object: `document:n${i}` }));
    for (const protocol of PROTOCOLS) {
      for (const count of [0, 101]) {
        const many = Array.from({ length: count }, (_, i) => ({ relation: 'viewer', object: `document:n${i}` }));
        const outcome = await fga.call(protocol, 'check_permissions', { checks: many }, ada.bearer);
        assert.equal(kindOf(outcome), 'invalid_argument', `${protocol} ${count}`);
      }
      const outcome = await fga.call(protocol, 'check_permissions', { checks: [...hundred.slice(0, 99), checks[0]] }, ada.bearer);
      assert.ok('ok' in outcome, protocol);
      assert.equal(outcome.ok.results.length, 100);
      assert.deepEqual(outcome.ok.results[99], { ...checks[0], allowed: true });
      assert.ok(outcome.ok.results.slice(0, 99).every((r: any, i: number) => r.object === `document:n${i}` && r.allowed === false));
    }
  });

  test('list_permissions answers what the subject holds, narrowed by relation and object_type', async () => {
    for (const protocol of PROTOCOLS) {
      const all = await fga.call(protocol, 'list_permissions', {}, ada.bearer);
      assert.ok('ok' in all, `${protocol}: ${JSON.stringify(all)}`);
      const pairs = new Set(all.ok.permissions.map((p: any) => `${p.object}#${p.relation}`));
      for (const pair of ['document:plan#owner', 'document:plan#editor', 'document:plan#viewer', 'document:spec#editor',
        'document:spec#viewer', 'document:notes#viewer', 'document:public#viewer', 'folder:shared#viewer', 'group:eng#member']) {
        assert.ok(pairs.has(pair), `${protocol}: ${pair} in ${[...pairs].join(', ')}`);
      }
      assert.ok(!pairs.has('document:bobs#viewer'));
      assert.equal(all.ok.truncated, false);
      assert.deepEqual([...all.ok.objects].sort(), [...new Set(all.ok.permissions.map((p: any) => p.object))].sort());

      const viewers = await fga.call(protocol, 'list_permissions', { relation: 'viewer', object_type: 'document' }, ada.bearer);
      assert.ok('ok' in viewers);
      assert.deepEqual([...viewers.ok.objects].sort(), ['document:notes', 'document:plan', 'document:public', 'document:spec']);
      assert.ok(viewers.ok.permissions.every((p: any) => p.relation === 'viewer'));

      const folders = await fga.call(protocol, 'list_permissions', { object_type: 'folder' }, ada.bearer);
      assert.deepEqual(folders, { ok: { objects: ['folder:shared'], permissions: [{ object: 'folder:shared', relation: 'viewer' }], truncated: false } });

      const owners = await fga.call(protocol, 'list_permissions', { relation: 'owner' }, ada.bearer);
      assert.deepEqual(owners, { ok: { objects: ['document:plan'], permissions: [{ object: 'document:plan', relation: 'owner' }], truncated: false } });

      assert.equal(kindOf(await fga.call(protocol, 'list_permissions', { object_type: 'project' }, ada.bearer)), 'invalid_argument');
      assert.equal(kindOf(await fga.call(protocol, 'list_permissions', { object_type: 'folder', relation: 'owner' }, ada.bearer)), 'invalid_argument');

      const forBob = await fga.call(protocol, 'list_permissions', { user: bob.user.id, object_type: 'document' }, ADMIN);
      assert.ok('ok' in forBob);
      assert.deepEqual([...forBob.ok.objects].sort(), ['document:bobs', 'document:public']);
    }
  });

  test('list_permissions stops at 1,000 entries with truncated, and narrowing brings it under the cap', async () => {
    const carol = await signedInUser(fga);
    const tuples = Array.from({ length: 1001 }, (_, i) => ({ user: carol.subject, relation: 'owner', object: `document:c${String(i).padStart(4, '0')}` }));
    await fga.ok('fga_write_tuples', { tuples: tuples.slice(0, 1000) });
    await fga.ok('fga_write_tuples', { tuples: tuples.slice(1000) });
    for (const protocol of PROTOCOLS) {
      const capped = await fga.call(protocol, 'list_permissions', { relation: 'owner' }, carol.bearer);
      assert.ok('ok' in capped, protocol);
      assert.equal(capped.ok.permissions.length, 1000, protocol);
      assert.equal(capped.ok.objects.length, 1000, protocol);
      assert.equal(capped.ok.truncated, true, protocol);
    }
    // Exactly 1,000 is not truncated: nothing more exists.
    await fga.ok('fga_delete_tuples', { tuples: tuples.slice(1000) });
    const exact = await fga.call('rest', 'list_permissions', { relation: 'owner', object_type: 'document' }, carol.bearer);
    assert.ok('ok' in exact);
    assert.equal(exact.ok.permissions.length, 1000);
    assert.equal(exact.ok.truncated, false);
    // Every owner is also editor and viewer: 3,000 entries without a filter, capped.
    const all = await fga.call('grpc', 'list_permissions', {}, carol.bearer);
    assert.ok('ok' in all);
    assert.equal(all.ok.permissions.length, 1000);
    assert.equal(all.ok.truncated, true);
  });
});
