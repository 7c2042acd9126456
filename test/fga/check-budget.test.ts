/**
 * docs/limits.md, "Checks per request": at most 100 permission checks per request. A GraphQL document
 * runs each root field as its own operation, so aliases used to multiply the limit (20 aliased
 * check_permissions fields of 100 checks = 2,000 checks in one HTTP request). Now all root fields of one
 * HTTP request share one budget of 100, list_permissions spending one per (type, relation) pair it lists;
 * over budget is invalid_argument naming the limit. A new request starts afresh; REST and gRPC carry one
 * operation per request and keep the per-call rule.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { ADMIN, PROTOCOLS, kindOf, startFgaServer, type FgaTestServer } from './ops-support.ts';

const MODEL = `model
  schema 1.1
type user
type folder
  relations
    define owner: [user]
    define viewer: [user] or owner
type document
  relations
    define parent: [folder]
    define owner: [user]
    define editor: [user] or owner
    define viewer: [user] or editor or viewer from parent
`;
/** folder#owner, folder#viewer, document#parent, document#owner, document#editor, document#viewer */
const PAIRS = 6;

const hundredChecks = Array.from({ length: 100 }, (_, i) => ({ relation: 'viewer', object: `document:d${i}` }));

async function graphql(fga: FgaTestServer, query: string, variables: Record<string, unknown>): Promise<any> {
  const res = await fetch(`${fga.server.baseUrl}/graphql`, {
    method: 'POST',
    headers: { origin: fga.server.baseUrl, 'content-type': 'application/json', ...ADMIN },
    body: JSON.stringify({ query, variables }),
  });
  assert.equal(res.status, 200);
  return res.json();
}

/** One document with `count` aliased check_permissions fields, each asking `checks`. */
function aliasedChecks(count: number): string {
  const fields = Array.from({ length: count }, (_, i) => `c${i}: check_permissions(params: $params) { results { allowed } }`);
  return `query Many($params: CheckPermissionsRequest!) { ${fields.join(' ')} }`;
}

describe('permission checks are bounded per HTTP request, aliases included', () => {
  let fga: FgaTestServer;
  before(async () => {
    fga = await startFgaServer();
    await fga.ok('fga_write_model', { dsl: MODEL });
    await fga.ok('fga_write_tuples', { tuples: [{ user: 'user:ada', relation: 'viewer', object: 'document:d7' }] });
  });
  after(async () => {
    await fga?.close();
  });

  test('20 aliased check_permissions of 100 checks (the root-field cap) are refused as invalid_argument', async () => {
    const body = await graphql(fga, aliasedChecks(20), { params: { user: 'user:ada', checks: hundredChecks } });
    // check_permissions answers a non-null type, so a refused field nulls `data` (GraphQL spec 6.4.4).
    assert.equal(body.data, null);
    assert.ok(body.errors.length >= 1);
    for (const error of body.errors) {
      assert.equal(error.extensions.code, 'INVALID_ARGUMENT');
      assert.match(error.message, /at most 100 permission checks per request/);
    }
  });

  test('two aliases of 100 checks are one too many; one alone passes', async () => {
    const two = await graphql(fga, aliasedChecks(2), { params: { user: 'user:ada', checks: hundredChecks } });
    assert.equal(two.errors?.[0]?.extensions.code, 'INVALID_ARGUMENT');
    assert.match(two.errors[0].message, /asked for 200/);
    const one = await graphql(fga, aliasedChecks(1), { params: { user: 'user:ada', checks: hundredChecks } });
    assert.equal(one.errors, undefined, JSON.stringify(one.errors));
    assert.equal(one.data.c0.results.filter((r: { allowed: boolean }) => r.allowed).length, 1, 'document:d7 only');
  });

  test('aliases sharing the budget pass while the total stays within 100', async () => {
    const checks = hundredChecks.slice(0, 25);
    const body = await graphql(fga, aliasedChecks(4), { params: { user: 'user:ada', checks } });
    assert.equal(body.errors, undefined, JSON.stringify(body.errors));
    assert.equal(Object.keys(body.data).length, 4);
    const over = await graphql(fga, aliasedChecks(5), { params: { user: 'user:ada', checks } });
    assert.equal(over.errors?.length, 1, 'the fifth field of 25 is one too many');
  });

  test('aliased list_permissions spend one check per (type, relation) pair', async () => {
    const fits = Math.floor(100 / PAIRS);
    const document = (count: number) =>
      `query Lists($params: ListPermissionsRequest!) { ${Array.from({ length: count }, (_, i) => `l${i}: list_permissions(params: $params) { objects }`).join(' ')} }`;
    const within = await graphql(fga, document(fits), { params: { user: 'user:ada' } });
    assert.equal(within.errors, undefined, JSON.stringify(within.errors));
    assert.deepEqual(within.data.l0.objects, ['document:d7']);
    const over = await graphql(fga, document(fits + 1), { params: { user: 'user:ada' } });
    assert.equal(over.errors?.[0]?.extensions.code, 'INVALID_ARGUMENT');
    assert.match(over.errors[0].message, /at most 100 permission checks per request/);
  });

  test('each request has its own budget; REST and gRPC still take 100 checks per call', async () => {
    for (const protocol of PROTOCOLS) {
      for (let round = 0; round < 2; round++) {
        const outcome = await fga.call(protocol, 'check_permissions', { user: 'user:ada', checks: hundredChecks }, ADMIN);
        assert.equal(kindOf(outcome), 'ok', `${protocol} round ${round}`);
      }
    }
  });

  test('required_relations of aliased validate_jwt_token fields spend the same budget', async () => {
    const password = 'Budget!pass1';
    const signup = await fetch(`${fga.server.baseUrl}/v1/signup`, {
      method: 'POST',
      headers: { origin: fga.server.baseUrl, 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'budget@example.com', password, confirm_password: password }),
    });
    const token = ((await signup.json()) as { access_token: string }).access_token;
    const required = Array.from({ length: 60 }, (_, i) => ({ relation: 'viewer', object: `document:d${i}` }));
    const fields = (count: number) => Array.from({ length: count }, (_, i) => `v${i}: validate_jwt_token(params: $params) { is_valid }`).join(' ');
    const query = (count: number) => `query V($params: ValidateJWTTokenRequest!) { ${fields(count)} }`;
    const params = { token_type: 'access_token', token, required_relations: required };
    const two = await graphql(fga, query(2), { params });
    const codes = (two.errors ?? []).map((e: { extensions: { code: string } }) => e.extensions.code);
    assert.ok(codes.includes('INVALID_ARGUMENT'), JSON.stringify(two.errors));
    assert.match(two.errors.find((e: { extensions: { code: string } }) => e.extensions.code === 'INVALID_ARGUMENT').message, /at most 100 permission checks per request/);
  });
});
