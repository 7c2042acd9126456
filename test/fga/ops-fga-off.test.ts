/**
 * FGA off (docs/configuration.md --fga-store, docs/errors.md, "FGA not enabled"): on a MongoDB main database without
 * --fga-store every FGA operation answers failed_precondition. No MongoDB runs here, so the server is
 * built with its FGA store turned off through buildApp's `fgaStore: null` seam, which is the state
 * createFgaStore leaves a MongoDB server in.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { registry } from '../../server/ops/registry.ts';
import { ADMIN, PROTOCOLS, kindOf, signedInUser, startFgaServer, type FgaTestServer, type TestUser } from './ops-support.ts';

const INPUTS: Record<string, Record<string, unknown>> = {
  fga_read_model: {},
  fga_write_model: { dsl: 'model\n  schema 1.1\ntype user\n' },
  fga_write_tuples: { tuples: [{ user: 'user:a', relation: 'viewer', object: 'document:1' }] },
  fga_delete_tuples: { tuples: [{ user: 'user:a', relation: 'viewer', object: 'document:1' }] },
  fga_read_tuples: {},
  fga_list_users: { object: 'document:1', relation: 'viewer', user_type: 'user' },
  fga_expand: { object: 'document:1', relation: 'viewer' },
  fga_reset: {},
  check_permissions: { checks: [{ relation: 'viewer', object: 'document:1' }] },
  list_permissions: {},
};

describe('with FGA off every FGA operation answers failed_precondition', () => {
  let fga: FgaTestServer;
  let ada: TestUser;
  before(async () => {
    fga = await startFgaServer([], { fgaStore: null });
    ada = await signedInUser(fga);
  });
  after(async () => {
    await fga?.close();
  });

  test('every FGA operation of the registry is covered here', () => {
    const fgaOps = registry.all.filter((op) => op.name.startsWith('fga_') || op.name.endsWith('_permissions')).map((op) => op.name);
    assert.deepEqual(fgaOps.sort(), Object.keys(INPUTS).sort());
  });

  for (const [name, input] of Object.entries(INPUTS)) {
    test(`${name} over REST, GraphQL and gRPC`, async () => {
      const credentials = name.startsWith('fga_') ? ADMIN : ada.bearer;
      for (const protocol of PROTOCOLS) {
        const outcome = await fga.call(protocol, name, input, credentials);
        assert.equal(kindOf(outcome), 'failed_precondition', `${protocol}: ${JSON.stringify(outcome)}`);
        assert.match((outcome as { message: string }).message, /FGA is not enabled/);
      }
    });
  }

  test('required_relations are failed_precondition too; the account operations work without them', async () => {
    const pair = { relation: 'viewer', object: 'document:1' };
    for (const protocol of PROTOCOLS) {
      const token = { token_type: 'access_token', token: ada.accessToken };
      assert.equal(kindOf(await fga.call(protocol, 'validate_jwt_token', { ...token, required_relations: [pair] })), 'failed_precondition');
      assert.equal(kindOf(await fga.call(protocol, 'validate_jwt_token', token)), 'ok');
      assert.equal(kindOf(await fga.call(protocol, 'validate_session', { cookie: ada.sessionToken, required_relations: [pair] })), 'failed_precondition');
      assert.equal(kindOf(await fga.call(protocol, 'session', { required_relations: [pair] }, ada.cookie)), 'failed_precondition');
    }
    assert.equal(kindOf(await fga.call('rest', 'validate_session', { cookie: ada.sessionToken })), 'ok', 'the refused session call ended nothing');
  });
});
