/**
 * The agent rule (docs/errors.md#messages-worth-knowing): a token carrying an RFC 8693 `act` claim is
 * an agent acting for its user; a check passes only when both `user:<sub>` and `agent:<act.sub>` hold the
 * relation. Without `type agent` in the model such checks are denied, unless the server runs with
 * --fga-allow-unconstrained-agents. Tokens are minted in the test (token exchange comes later).
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { PROTOCOLS, agentToken, signedInUser, startFgaServer, type FgaTestServer, type TestUser } from './ops-support.ts';

const WITHOUT_AGENT = `model
  schema 1.1
type user
type document
  relations
    define viewer: [user]
`;

const WITH_AGENT = `model
  schema 1.1
type user
type agent
type document
  relations
    define viewer: [user, agent]
`;

const CHECKS = [
  { relation: 'viewer', object: 'document:both' },
  { relation: 'viewer', object: 'document:user-only' },
  { relation: 'viewer', object: 'document:agent-only' },
];

async function seed(fga: FgaTestServer, user: TestUser, dsl: string, agentTuples: boolean): Promise<void> {
  await fga.ok('fga_write_model', { dsl });
  const tuples = [
    { user: user.subject, relation: 'viewer', object: 'document:both' },
    { user: user.subject, relation: 'viewer', object: 'document:user-only' },
  ];
  if (agentTuples) {
    tuples.push({ user: 'agent:agent-7', relation: 'viewer', object: 'document:both' });
    tuples.push({ user: 'agent:agent-7', relation: 'viewer', object: 'document:agent-only' });
  }
  await fga.ok('fga_write_tuples', { tuples });
}

function results(allowed: boolean[]) {
  return { ok: { results: CHECKS.map((check, i) => ({ ...check, allowed: allowed[i] })) } };
}

describe('agent rule with the flag off (default)', () => {
  let fga: FgaTestServer;
  let ada: TestUser;
  let asAgent: Record<string, string>;
  before(async () => {
    fga = await startFgaServer();
    ada = await signedInUser(fga);
    asAgent = { authorization: `Bearer ${await agentToken(fga, ada, 'agent-7')}` };
  });
  after(async () => {
    await fga?.close();
  });

  test('without type agent, an agent token is denied every check while the user itself passes', async () => {
    await seed(fga, ada, WITHOUT_AGENT, false);
    for (const protocol of PROTOCOLS) {
      assert.deepEqual(await fga.call(protocol, 'check_permissions', { checks: CHECKS }, ada.bearer), results([true, true, false]), protocol);
      assert.deepEqual(await fga.call(protocol, 'check_permissions', { checks: CHECKS }, asAgent), results([false, false, false]), protocol);
      assert.deepEqual(await fga.call(protocol, 'list_permissions', {}, asAgent), { ok: { objects: [], permissions: [], truncated: false } });
      // The agent's subject is still its user: naming the user explicitly is allowed, and still constrained.
      assert.deepEqual(await fga.call(protocol, 'check_permissions', { checks: CHECKS, user: ada.subject }, asAgent), results([false, false, false]));
    }
    const validated = await fga.call('rest', 'validate_jwt_token', {
      token_type: 'access_token', token: asAgent.authorization!.slice(7), required_relations: [CHECKS[0]],
    });
    assert.equal('error' in validated && validated.error, 'permission_denied');
  });

  test('with type agent, a check passes only when both the user and the agent hold the relation', async () => {
    await fga.ok('fga_delete_tuples', { tuples: (await fga.ok('fga_read_tuples', {})).tuples });
    await seed(fga, ada, WITH_AGENT, true);
    for (const protocol of PROTOCOLS) {
      assert.deepEqual(await fga.call(protocol, 'check_permissions', { checks: CHECKS }, asAgent), results([true, false, false]), protocol);
      assert.deepEqual(await fga.call(protocol, 'check_permissions', { checks: CHECKS }, ada.bearer), results([true, true, false]), protocol);
      assert.deepEqual(await fga.call(protocol, 'list_permissions', {}, asAgent), {
        ok: { objects: ['document:both'], permissions: [{ object: 'document:both', relation: 'viewer' }], truncated: false },
      }, protocol);
    }
    const token = asAgent.authorization!.slice(7);
    for (const protocol of PROTOCOLS) {
      const allowed = await fga.call(protocol, 'validate_jwt_token', { token_type: 'access_token', token, required_relations: [CHECKS[0]] });
      assert.ok('ok' in allowed && allowed.ok.is_valid === true, protocol);
      assert.deepEqual(allowed.ok.claims.act, { sub: 'agent-7' });
      const refused = await fga.call(protocol, 'validate_jwt_token', { token_type: 'access_token', token, required_relations: [CHECKS[0], CHECKS[1]] });
      assert.equal('error' in refused && refused.error, 'permission_denied', protocol);
      assert.match((refused as { message: string }).message, /viewer.*document:user-only/);
    }
  });
});

describe('agent rule with --fga-allow-unconstrained-agents', () => {
  let fga: FgaTestServer;
  let ada: TestUser;
  let asAgent: Record<string, string>;
  before(async () => {
    fga = await startFgaServer(['--fga-allow-unconstrained-agents']);
    ada = await signedInUser(fga);
    asAgent = { authorization: `Bearer ${await agentToken(fga, ada, 'agent-7')}` };
  });
  after(async () => {
    await fga?.close();
  });

  test('without type agent, an agent passes where its user passes', async () => {
    await seed(fga, ada, WITHOUT_AGENT, false);
    for (const protocol of PROTOCOLS) {
      assert.deepEqual(await fga.call(protocol, 'check_permissions', { checks: CHECKS }, asAgent), results([true, true, false]), protocol);
      const listed = await fga.call(protocol, 'list_permissions', { object_type: 'document' }, asAgent);
      assert.ok('ok' in listed);
      assert.deepEqual(listed.ok.objects, ['document:both', 'document:user-only']);
    }
  });

  test('with type agent, the agent is still constrained', async () => {
    await fga.ok('fga_delete_tuples', { tuples: (await fga.ok('fga_read_tuples', {})).tuples });
    await seed(fga, ada, WITH_AGENT, true);
    for (const protocol of PROTOCOLS) {
      assert.deepEqual(await fga.call(protocol, 'check_permissions', { checks: CHECKS }, asAgent), results([true, false, false]), protocol);
    }
  });
});
