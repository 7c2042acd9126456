/**
 * `required_relations` in `session`, `validate_jwt_token` and `validate_session` (docs/operations.md):
 * each pair must be allowed for the token's or session's subject through the FGA engine, else
 * permission_denied naming the first missing pair; over REST, GraphQL and gRPC.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { PROTOCOLS, kindOf, signedInUser, startFgaServer, type FgaTestServer, type TestUser } from './ops-support.ts';

const MODEL = `model
  schema 1.1
type user
type team
  relations
    define member: [user]
type document
  relations
    define team: [team]
    define viewer: [user] or member from team
`;

const HELD = { relation: 'viewer', object: 'document:roadmap' };
const VIA_TEAM = { relation: 'viewer', object: 'document:handbook' };
const MISSING = { relation: 'viewer', object: 'document:payroll' };

describe('required_relations in session, validate_jwt_token and validate_session', () => {
  let fga: FgaTestServer;
  let ada: TestUser;
  before(async () => {
    fga = await startFgaServer();
    ada = await signedInUser(fga);
  });
  after(async () => {
    await fga?.close();
  });

  test('before any model exists, asking for relations is failed_precondition; without them nothing changes', async () => {
    for (const protocol of PROTOCOLS) {
      const outcome = await fga.call(protocol, 'validate_jwt_token', { token_type: 'access_token', token: ada.accessToken, required_relations: [HELD] });
      assert.equal(kindOf(outcome), 'failed_precondition', protocol);
      const plain = await fga.call(protocol, 'validate_jwt_token', { token_type: 'access_token', token: ada.accessToken });
      assert.equal(kindOf(plain), 'ok', protocol);
    }
  });

  test('validate_jwt_token and validate_session pass when every pair is allowed and name the first missing one', async () => {
    await fga.ok('fga_write_model', { dsl: MODEL });
    await fga.ok('fga_write_tuples', {
      tuples: [
        { user: ada.subject, relation: 'viewer', object: HELD.object },
        { user: ada.subject, relation: 'member', object: 'team:core' },
        { user: 'team:core', relation: 'team', object: VIA_TEAM.object },
      ],
    });
    for (const protocol of PROTOCOLS) {
      const token = { token_type: 'access_token', token: ada.accessToken };
      const passed = await fga.call(protocol, 'validate_jwt_token', { ...token, required_relations: [HELD, VIA_TEAM] });
      assert.ok('ok' in passed && passed.ok.is_valid === true, `${protocol}: ${JSON.stringify(passed)}`);
      const refused = await fga.call(protocol, 'validate_jwt_token', { ...token, required_relations: [HELD, MISSING, { relation: 'viewer', object: 'document:other' }] });
      assert.equal(kindOf(refused), 'permission_denied', protocol);
      assert.match((refused as { message: string }).message, /viewer on document:payroll$/);

      const cookie = { cookie: ada.sessionToken };
      const sessionPassed = await fga.call(protocol, 'validate_session', { ...cookie, required_relations: [VIA_TEAM] });
      assert.ok('ok' in sessionPassed && sessionPassed.ok.user.id === ada.user.id, `${protocol}: ${JSON.stringify(sessionPassed)}`);
      const sessionRefused = await fga.call(protocol, 'validate_session', { ...cookie, required_relations: [MISSING] });
      assert.equal(kindOf(sessionRefused), 'permission_denied', protocol);
      // The request's own cookie is used when none is given.
      const ownCookie = await fga.call(protocol, 'validate_session', { required_relations: [MISSING] }, ada.cookie);
      assert.equal(kindOf(ownCookie), 'permission_denied', protocol);

      const badPair = await fga.call(protocol, 'validate_jwt_token', { ...token, required_relations: [{ relation: 'owner', object: 'document:roadmap' }] });
      assert.equal(kindOf(badPair), 'invalid_argument', protocol);
    }
  });

  test('session refuses a missing relation before changing anything, and refreshes when all are held', async () => {
    for (const protocol of PROTOCOLS) {
      const user = await signedInUser(fga);
      await fga.ok('fga_write_tuples', { tuples: [{ user: user.subject, relation: 'viewer', object: HELD.object }] });
      const refused = await fga.call(protocol, 'session', { required_relations: [HELD, MISSING] }, user.cookie);
      assert.equal(kindOf(refused), 'permission_denied', protocol);
      assert.match((refused as { message: string }).message, /document:payroll/);
      // The refused call ended nothing: the same cookie still opens the session.
      assert.equal(kindOf(await fga.call(protocol, 'validate_session', { cookie: user.sessionToken })), 'ok', protocol);

      const refreshed = await fga.call(protocol, 'session', { required_relations: [HELD] }, user.cookie);
      assert.ok('ok' in refreshed && typeof refreshed.ok.access_token === 'string', `${protocol}: ${JSON.stringify(refreshed)}`);
      // A refresh ends the old session.
      assert.equal(kindOf(await fga.call(protocol, 'validate_session', { cookie: user.sessionToken })), 'unauthenticated', protocol);
    }
  });
});
