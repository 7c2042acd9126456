/**
 * The super-admin FGA operations (docs/operations.md `/v1/admin/fga/*`, docs/api-overview.md#states-and-transitions reset) over REST,
 * GraphQL and gRPC against a real server on SQLite: empty model, append-only versions, tuples validated
 * against the current model (all or none), reads with filters and pages, list_users, expand, and the reset
 * refused while tuples exist and logged without secrets.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import pino from 'pino';
import { ADMIN_SECRET } from '../support/app.ts';
import { ADMIN, PROTOCOLS, kindOf, signedInUser, startFgaServer, type FgaTestServer } from './ops-support.ts';

const MODEL = `model
  schema 1.1
type user
type group
  relations
    define member: [user]
type document
  relations
    define owner: [user]
    define viewer: [user, user:*, group#member] or owner
`;

function logCapture(): { logger: pino.Logger; lines: () => any[] } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      chunks.push(String(chunk));
      done();
    },
  });
  return { logger: pino({ level: 'info' }, stream), lines: () => chunks.join('').split('\n').filter(Boolean).map((l) => JSON.parse(l)) };
}

describe('FGA admin operations over REST, GraphQL and gRPC', () => {
  let fga: FgaTestServer;
  const logs = logCapture();
  before(async () => {
    fga = await startFgaServer([], { logger: logs.logger });
  });
  after(async () => {
    await fga?.close();
  });

  test('an empty store answers an empty model, not an error', async () => {
    for (const protocol of PROTOCOLS) {
      assert.deepEqual(await fga.call(protocol, 'fga_read_model', {}, ADMIN), { ok: { id: '', dsl: '' } }, protocol);
    }
  });

  test('tuples, list_users and expand before any model are failed_precondition', async () => {
    const tuples = [{ user: 'user:ada', relation: 'viewer', object: 'document:1' }];
    for (const protocol of PROTOCOLS) {
      assert.equal(kindOf(await fga.call(protocol, 'fga_write_tuples', { tuples }, ADMIN)), 'failed_precondition', protocol);
      assert.equal(kindOf(await fga.call(protocol, 'fga_delete_tuples', { tuples }, ADMIN)), 'failed_precondition', protocol);
      const listUsers = { object: 'document:1', relation: 'viewer', user_type: 'user' };
      assert.equal(kindOf(await fga.call(protocol, 'fga_list_users', listUsers, ADMIN)), 'failed_precondition', protocol);
      const expand = { object: 'document:1', relation: 'viewer' };
      assert.equal(kindOf(await fga.call(protocol, 'fga_expand', expand, ADMIN)), 'failed_precondition', protocol);
    }
  });

  test('the admin operations refuse anonymous callers and users', async () => {
    const user = await signedInUser(fga);
    for (const protocol of PROTOCOLS) {
      for (const headers of [{}, user.bearer]) {
        assert.equal(kindOf(await fga.call(protocol, 'fga_read_model', {}, headers)), 'unauthenticated', protocol);
        assert.equal(kindOf(await fga.call(protocol, 'fga_write_model', { dsl: MODEL }, headers)), 'unauthenticated', protocol);
        assert.equal(kindOf(await fga.call(protocol, 'fga_reset', {}, headers)), 'unauthenticated', protocol);
      }
    }
  });

  test('models are versioned and append-only; the newest is current on every protocol', async () => {
    const ids: string[] = [];
    for (const [index, protocol] of PROTOCOLS.entries()) {
      const dsl = `${MODEL}# version ${index}\n`;
      const outcome = await fga.call(protocol, 'fga_write_model', { dsl }, ADMIN);
      assert.ok('ok' in outcome, `${protocol}: ${JSON.stringify(outcome)}`);
      assert.equal(outcome.ok.dsl, dsl);
      assert.ok(outcome.ok.id.length > 0);
      ids.push(outcome.ok.id);
    }
    assert.equal(new Set(ids).size, 3, 'each write is a new version');
    for (const protocol of PROTOCOLS) {
      assert.deepEqual(await fga.call(protocol, 'fga_read_model', {}, ADMIN), { ok: { id: ids[2], dsl: `${MODEL}# version 2\n` } }, protocol);
    }
  });

  test('a model the DSL validator refuses is invalid_argument and leaves the current model', async () => {
    const before = await fga.ok('fga_read_model');
    const bad = 'model\n  schema 1.1\ntype document\n  relations\n    define viewer: [person]\n';
    for (const protocol of PROTOCOLS) {
      const outcome = await fga.call(protocol, 'fga_write_model', { dsl: bad }, ADMIN);
      assert.equal(kindOf(outcome), 'invalid_argument', `${protocol}: ${JSON.stringify(outcome)}`);
    }
    assert.deepEqual(await fga.ok('fga_read_model'), before);
  });

  test('tuples are written, read by filter a page at a time, and deleted, on every protocol', async () => {
    for (const protocol of PROTOCOLS) {
      const object = `document:${protocol}`;
      const tuples = [
        { user: 'user:ada', relation: 'viewer', object },
        { user: 'user:*', relation: 'viewer', object },
        { user: 'group:eng#member', relation: 'viewer', object },
        { user: 'user:bob', relation: 'owner', object },
        { user: 'user:ada', relation: 'member', object: 'group:eng' },
      ].map((t) => (t.object === 'group:eng' ? { ...t, user: `user:${protocol}` } : t));
      assert.deepEqual(await fga.call(protocol, 'fga_write_tuples', { tuples }, ADMIN), { ok: { message: '5 tuple(s) written' } }, protocol);

      const all = await fga.call(protocol, 'fga_read_tuples', { object }, ADMIN);
      assert.ok('ok' in all, protocol);
      assert.equal(all.ok.tuples.length, 4, protocol);
      assert.equal(all.ok.continuation_token ?? '', '', `${protocol}: nothing more after the last page`);

      const viewers = await fga.call(protocol, 'fga_read_tuples', { object, relation: 'viewer' }, ADMIN);
      assert.ok('ok' in viewers);
      assert.deepEqual(new Set(viewers.ok.tuples.map((t: any) => t.user)), new Set(['user:ada', 'user:*', 'group:eng#member']));

      const seen: any[] = [];
      let token: string | undefined;
      do {
        const page = await fga.call(protocol, 'fga_read_tuples', { object, page_size: 3, ...(token ? { continuation_token: token } : {}) }, ADMIN);
        assert.ok('ok' in page, `${protocol}: ${JSON.stringify(page)}`);
        assert.ok(page.ok.tuples.length <= 3);
        seen.push(...page.ok.tuples);
        token = page.ok.continuation_token || undefined;
      } while (token);
      assert.deepEqual(seen.map((t) => JSON.stringify(t)).sort(), all.ok.tuples.map((t: any) => JSON.stringify(t)).sort(), protocol);

      assert.deepEqual(await fga.call(protocol, 'fga_delete_tuples', { tuples }, ADMIN), { ok: { message: '5 tuple(s) deleted' } }, protocol);
      const after = await fga.call(protocol, 'fga_read_tuples', { object }, ADMIN);
      assert.deepEqual(after, { ok: { tuples: [] } }, protocol);
    }
  });

  test('a batch with one tuple the model does not allow is invalid_argument and writes nothing', async () => {
    const good = { user: 'user:ada', relation: 'viewer', object: 'document:atomic' };
    for (const bad of [
      { user: 'document:1', relation: 'viewer', object: 'document:atomic' },
      { user: 'user:ada', relation: 'editor', object: 'document:atomic' },
      { user: 'user:ada', relation: 'viewer', object: 'folder:atomic' },
      { user: 'user:*', relation: 'owner', object: 'document:atomic' },
    ]) {
      for (const protocol of PROTOCOLS) {
        const outcome = await fga.call(protocol, 'fga_write_tuples', { tuples: [good, bad] }, ADMIN);
        assert.equal(kindOf(outcome), 'invalid_argument', `${protocol} ${JSON.stringify(bad)}: ${JSON.stringify(outcome)}`);
        assert.match((outcome as { message: string }).message, /tuples\[1\]/);
      }
    }
    assert.deepEqual(await fga.ok('fga_read_tuples', { object: 'document:atomic' }), { tuples: [] });
    for (const protocol of PROTOCOLS) {
      assert.equal(kindOf(await fga.call(protocol, 'fga_write_tuples', { tuples: [] }, ADMIN)), 'invalid_argument', protocol);
    }
  });

  test('list_users answers fully qualified ids and expand answers the userset tree as JSON', async () => {
    const tuples = [
      { user: 'user:ada', relation: 'viewer', object: 'document:lu' },
      { user: 'user:bob', relation: 'owner', object: 'document:lu' },
      { user: 'group:eng#member', relation: 'viewer', object: 'document:lu' },
      { user: 'user:cy', relation: 'member', object: 'group:eng' },
    ];
    await fga.ok('fga_write_tuples', { tuples });
    for (const protocol of PROTOCOLS) {
      const users = await fga.call(protocol, 'fga_list_users', { object: 'document:lu', relation: 'viewer', user_type: 'user' }, ADMIN);
      assert.ok('ok' in users, `${protocol}: ${JSON.stringify(users)}`);
      assert.deepEqual([...users.ok.users].sort(), ['user:ada', 'user:bob', 'user:cy'], protocol);

      const groups = await fga.call(protocol, 'fga_list_users', { object: 'document:lu', relation: 'viewer', user_type: 'group#member' }, ADMIN);
      assert.ok('ok' in groups, `${protocol}: ${JSON.stringify(groups)}`);
      assert.deepEqual(groups.ok.users, ['group:eng#member'], protocol);

      const expanded = await fga.call(protocol, 'fga_expand', { object: 'document:lu', relation: 'viewer' }, ADMIN);
      assert.ok('ok' in expanded, `${protocol}: ${JSON.stringify(expanded)}`);
      const tree = JSON.parse(expanded.ok.tree);
      const text = JSON.stringify(tree);
      for (const expected of ['user:ada', 'group:eng#member', 'owner']) assert.ok(text.includes(expected), `${protocol}: tree names ${expected}: ${text}`);

      const unknown = await fga.call(protocol, 'fga_expand', { object: 'document:lu', relation: 'editor' }, ADMIN);
      assert.equal(kindOf(unknown), 'invalid_argument', protocol);
    }
    await fga.ok('fga_delete_tuples', { tuples });
  });

  test('reset is refused while any tuple exists, then deletes the models, and is logged without secrets', async () => {
    const tuple = { user: 'user:ada', relation: 'viewer', object: 'document:keep' };
    await fga.ok('fga_write_tuples', { tuples: [tuple] });
    const model = await fga.ok('fga_read_model');
    for (const protocol of PROTOCOLS) {
      const outcome = await fga.call(protocol, 'fga_reset', {}, ADMIN);
      assert.equal(kindOf(outcome), 'failed_precondition', `${protocol}: ${JSON.stringify(outcome)}`);
    }
    assert.deepEqual(await fga.ok('fga_read_model'), model, 'a refused reset changes nothing');
    assert.equal((await fga.ok('fga_read_tuples', { object: 'document:keep' })).tuples.length, 1);

    await fga.ok('fga_delete_tuples', { tuples: [tuple] });
    for (const protocol of PROTOCOLS) {
      assert.deepEqual(await fga.call(protocol, 'fga_reset', {}, ADMIN), { ok: { message: 'FGA store reset' } }, protocol);
      assert.deepEqual(await fga.call(protocol, 'fga_read_model', {}, ADMIN), { ok: { id: '', dsl: '' } }, protocol);
    }
    const audit = logs.lines().filter((line) => line.audit === 'fga.reset');
    assert.equal(audit.length, 3);
    assert.equal(audit[0].caller, 'super-admin (header)');
    assert.ok(!JSON.stringify(logs.lines()).includes(ADMIN_SECRET), 'no secret in the log');
  });
});
