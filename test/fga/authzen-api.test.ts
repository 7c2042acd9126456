/**
 * The AuthZEN PDP beyond single decisions (docs/authzen.md): batch defaults and the three evaluation
 * semantics, per-evaluation errors, the subject, resource and action searches with their pages, the metadata
 * document, the request identifier, the condition context, and the refusals: callers the PDP does not take
 * (no token, a user's token, a client token for another audience, a client not granted the PDP, a deactivated
 * client) and input it cannot read. REST (the spec's paths) and the same operations over GraphQL and gRPC.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { kindOf, startPdpServer, type Outcome, type PdpServer } from './authzen-support.ts';
import { signedInUser } from './ops-support.ts';
import { adminClient } from '../support/admin-client.ts';
import { MORTY, RICK, TODO_MODEL, TODO_OF, todoTuples } from './authzen-todo-fixture.ts';

const OTHER_PROTOCOLS = ['graphql', 'grpc'] as const;
const todo = (owner: string) => ({ type: 'todo', id: TODO_OF[owner]! });
const subject = (email: string) => ({ type: 'user', id: email });
const ALL_TODOS = [...Object.values(TODO_OF), 'todo-1'].sort();

describe('AuthZEN PDP', () => {
  let pdp: PdpServer;
  before(async () => {
    pdp = await startPdpServer();
    await pdp.fga.ok('fga_write_model', { dsl: TODO_MODEL });
    await pdp.fga.ok('fga_write_tuples', { tuples: todoTuples() });
  });
  after(async () => {
    await pdp?.close();
  });

  /** The same request on the spec path and as the operation over GraphQL and gRPC: one body, answered. */
  async function everywhere(path: string, op: string, body: Record<string, unknown>): Promise<any> {
    const rest = await pdp.post(path, body);
    assert.equal(rest.status, 200, `${path}: ${JSON.stringify(rest.body)}`);
    for (const protocol of OTHER_PROTOCOLS) assert.deepEqual(await pdp.call(protocol, op, body), { ok: rest.body }, `${protocol} ${op}`);
    return rest.body;
  }

  /** The same bad request everywhere: 400 over REST, invalid_argument over GraphQL and gRPC; answers the REST description. */
  async function refusedEverywhere(path: string, op: string, body: Record<string, unknown>, pattern: RegExp): Promise<void> {
    const rest = await pdp.post(path, body);
    assert.equal(rest.status, 400, JSON.stringify(rest.body));
    assert.equal(rest.body.error, 'invalid_request');
    assert.match(rest.body.error_description, pattern);
    for (const protocol of OTHER_PROTOCOLS) {
      const outcome = await pdp.call(protocol, op, body);
      assert.equal(kindOf(outcome), 'invalid_argument', `${protocol}: ${JSON.stringify(outcome)}`);
      assert.match((outcome as { message: string }).message, pattern, protocol);
    }
  }

  describe('evaluations', () => {
    const updates = [{ resource: todo(RICK) }, { resource: todo(MORTY) }, { action: { name: 'can_read_todos' }, resource: todo(RICK) }];

    test('top-level subject, action and context are defaults each evaluation may override, answered in order', async () => {
      const body = await everywhere('/access/v1/evaluations', 'authzen_evaluations', {
        subject: subject(MORTY), action: { name: 'can_update_todo' }, context: { time: '2026-11-27T00:00:00Z' }, evaluations: updates,
      });
      assert.deepEqual(body, { evaluations: [{ decision: false }, { decision: true }, { decision: true }] });
      const explicit = await everywhere('/access/v1/evaluations', 'authzen_evaluations', {
        subject: subject(MORTY), action: { name: 'can_update_todo' }, evaluations: updates, options: { evaluations_semantic: 'execute_all' },
      });
      assert.deepEqual(explicit, body);
      // Each evaluation may name its own subject.
      const mixed = await everywhere('/access/v1/evaluations', 'authzen_evaluations', {
        action: { name: 'can_delete_todo' }, resource: todo(MORTY), evaluations: [{ subject: subject(RICK) }, { subject: subject('beth@the-smiths.com') }],
      });
      assert.deepEqual(mixed, { evaluations: [{ decision: true }, { decision: false }] });
    });

    test('deny_on_first_deny stops after the first denial and permit_on_first_permit after the first permit', async () => {
      const base = { subject: subject(MORTY), action: { name: 'can_update_todo' } };
      const order = [{ resource: todo(MORTY) }, { resource: todo(RICK) }, { resource: todo(MORTY) }];
      const denied = await everywhere('/access/v1/evaluations', 'authzen_evaluations', { ...base, evaluations: order, options: { evaluations_semantic: 'deny_on_first_deny' } });
      assert.deepEqual(denied, { evaluations: [{ decision: true }, { decision: false, context: { reason: 'deny_on_first_deny' } }] });
      const permitted = await everywhere('/access/v1/evaluations', 'authzen_evaluations', {
        ...base, evaluations: [{ resource: todo(RICK) }, { resource: todo(MORTY) }, { resource: todo(RICK) }], options: { evaluations_semantic: 'permit_on_first_permit' },
      });
      assert.deepEqual(permitted, { evaluations: [{ decision: false }, { decision: true, context: { reason: 'permit_on_first_permit' } }] });
      // Nothing to stop at: every evaluation is answered, without a reason.
      const through = await everywhere('/access/v1/evaluations', 'authzen_evaluations', {
        ...base, evaluations: [{ resource: todo(MORTY) }, { resource: todo(MORTY) }], options: { evaluations_semantic: 'deny_on_first_deny' },
      });
      assert.deepEqual(through, { evaluations: [{ decision: true }, { decision: true }] });
    });

    test('an evaluation that cannot be asked is a denial carrying its error; the others are answered', async () => {
      const body = await everywhere('/access/v1/evaluations', 'authzen_evaluations', {
        subject: subject(MORTY),
        evaluations: [
          { action: { name: 'can_update_todo' }, resource: todo(MORTY) },
          { action: { name: 'can_fly' }, resource: todo(MORTY) },
          { action: { name: 'can_update_todo' }, resource: { type: 'todo', id: 'a:b' } },
          { action: { name: 'can_read_todos' }, resource: todo(RICK) },
        ],
      });
      assert.equal(body.evaluations.length, 4);
      assert.deepEqual(body.evaluations[0], { decision: true });
      assert.deepEqual(body.evaluations[3], { decision: true });
      for (const [index, pattern] of [[1, /evaluations\[1\].*can_fly/], [2, /evaluations\[2\]\.resource\.id/]] as const) {
        const { decision, context } = body.evaluations[index];
        assert.equal(decision, false);
        assert.equal(context.error.status, 400);
        assert.match(context.error.message, pattern);
      }
      const stopped = await everywhere('/access/v1/evaluations', 'authzen_evaluations', {
        subject: subject(MORTY), resource: todo(MORTY), options: { evaluations_semantic: 'deny_on_first_deny' },
        evaluations: [{ action: { name: 'can_fly' } }, { action: { name: 'can_update_todo' } }],
      });
      assert.equal(stopped.evaluations.length, 1);
      assert.equal(stopped.evaluations[0].context.reason, 'deny_on_first_deny');
    });

    test('without evaluations the request is one evaluation, answered as a decision', async () => {
      const body = await everywhere('/access/v1/evaluations', 'authzen_evaluations', { subject: subject(RICK), action: { name: 'can_delete_todo' }, resource: todo(MORTY), evaluations: [] });
      assert.deepEqual(body, { decision: true });
    });

    test('a missing entity, an unknown semantic or more than 100 evaluations refuse the whole request', async () => {
      await refusedEverywhere('/access/v1/evaluations', 'authzen_evaluations', { action: { name: 'can_read_todos' }, evaluations: [{ resource: todo(RICK) }] }, /evaluations\[0\]\.subject: is required/);
      await refusedEverywhere('/access/v1/evaluations', 'authzen_evaluations', { subject: subject(RICK), resource: todo(RICK) }, /action: is required/);
      await refusedEverywhere('/access/v1/evaluations', 'authzen_evaluations', {
        subject: subject(RICK), action: { name: 'can_read_todos' }, evaluations: [{ resource: todo(RICK) }], options: { evaluations_semantic: 'first_wins' },
      }, /evaluations_semantic/);
      const many = Array.from({ length: 101 }, () => ({ resource: todo(RICK) }));
      await refusedEverywhere('/access/v1/evaluations', 'authzen_evaluations', { subject: subject(RICK), action: { name: 'can_read_todos' }, evaluations: many }, /evaluations/);
      const hundred = await pdp.post('/access/v1/evaluations', { subject: subject(RICK), action: { name: 'can_read_todos' }, evaluations: many.slice(1) });
      assert.equal(hundred.status, 200);
      assert.equal(hundred.body.evaluations.length, 100);
    });
  });

  describe('single evaluation input', () => {
    test('a missing entity, an id FGA cannot hold, a type or relation the model lacks: 400 naming the field', async () => {
      const good = { subject: subject(RICK), action: { name: 'can_read_todos' }, resource: todo(RICK) };
      await refusedEverywhere('/access/v1/evaluation', 'authzen_evaluation', { action: good.action, resource: good.resource }, /subject/);
      await refusedEverywhere('/access/v1/evaluation', 'authzen_evaluation', { ...good, subject: { type: 'user' } }, /subject\.id: is required/);
      await refusedEverywhere('/access/v1/evaluation', 'authzen_evaluation', { ...good, subject: { type: 'user', id: 'a#member' } }, /subject\.id/);
      await refusedEverywhere('/access/v1/evaluation', 'authzen_evaluation', { ...good, subject: { type: 'user', id: '*' } }, /subject\.id/);
      await refusedEverywhere('/access/v1/evaluation', 'authzen_evaluation', { ...good, resource: { type: 'to do', id: 'x' } }, /resource\.type/);
      await refusedEverywhere('/access/v1/evaluation', 'authzen_evaluation', { ...good, resource: { type: 'project', id: 'x' } }, /project/);
      await refusedEverywhere('/access/v1/evaluation', 'authzen_evaluation', { ...good, action: { name: 'can_fly' } }, /can_fly/);
      // Unknown fields and properties are ignored (AuthZEN 1.0 section 10.1.1).
      const ignored = await pdp.post('/access/v1/evaluation', { ...good, subject: { ...good.subject, properties: { department: 'Sales' } }, extra: 1 });
      assert.deepEqual(ignored.body, { decision: true });
    });

    test('REST: a body that is not a JSON object is 400', async () => {
      for (const body of ['[1]', '"text"', 'null']) {
        const reply = await pdp.post('/access/v1/evaluation', body);
        assert.equal(reply.status, 400, body);
        assert.equal(reply.body.error, 'invalid_request');
      }
      const malformed = await pdp.post('/access/v1/evaluation', '{"subject":');
      assert.equal(malformed.status, 400);
      const res = await fetch(`${pdp.fga.server.baseUrl}/access/v1/evaluation`, { method: 'GET', headers: pdp.client.bearer });
      assert.equal(res.status, 405);
      assert.equal(res.headers.get('allow'), 'POST');
    });

    test('X-Request-ID comes back on answers and refusals; one a header cannot carry is not echoed', async () => {
      const good = { subject: subject(RICK), action: { name: 'can_read_todos' }, resource: todo(RICK) };
      const id = 'bfe9eb29-ab87-4ca3-be83-a1d5d8305716';
      const ok = await pdp.post('/access/v1/evaluation', good, { ...pdp.client.bearer, 'x-request-id': id });
      assert.equal(ok.headers.get('x-request-id'), id);
      const bad = await pdp.post('/access/v1/evaluation', { subject: good.subject }, { ...pdp.client.bearer, 'x-request-id': id });
      assert.equal(bad.status, 400);
      assert.equal(bad.headers.get('x-request-id'), id);
      const anonymous = await pdp.post('/access/v1/evaluation', good, { 'x-request-id': id });
      assert.equal(anonymous.status, 401);
      assert.equal(anonymous.headers.get('x-request-id'), id);
      const long = await pdp.post('/access/v1/evaluation', good, { ...pdp.client.bearer, 'x-request-id': 'x'.repeat(300) });
      assert.equal(long.status, 200);
      assert.equal(long.headers.get('x-request-id'), null);
    });
  });

  describe('searches', () => {
    test('resource search lists the resources of the type the subject may act on, transitively, sorted', async () => {
      const morty = await everywhere('/access/v1/search/resource', 'authzen_search_resource', {
        subject: subject(MORTY), action: { name: 'can_update_todo' }, resource: { type: 'todo' },
      });
      assert.deepEqual(morty, { page: { next_token: '', count: 1, total: 1 }, results: [todo(MORTY)] });
      const rick = await everywhere('/access/v1/search/resource', 'authzen_search_resource', {
        subject: subject(RICK), action: { name: 'can_delete_todo' }, resource: { type: 'todo', id: 'ignored' },
      });
      assert.deepEqual(rick.results, ALL_TODOS.map((id) => ({ type: 'todo', id })));
      // Every result is permitted when evaluated (AuthZEN 1.0 section 8.1).
      for (const resource of rick.results) {
        assert.deepEqual((await pdp.post('/access/v1/evaluation', { subject: subject(RICK), action: { name: 'can_delete_todo' }, resource })).body, { decision: true });
      }
    });

    test('pages: limit, next_token until empty, total; a token with a changed request or a forged one is 400', async () => {
      const request = { subject: subject(RICK), action: { name: 'can_delete_todo' }, resource: { type: 'todo' }, page: { limit: 4 } };
      const first = await everywhere('/access/v1/search/resource', 'authzen_search_resource', request);
      assert.deepEqual(first.page.count, 4);
      assert.equal(first.page.total, 6);
      assert.notEqual(first.page.next_token, '');
      const second = await everywhere('/access/v1/search/resource', 'authzen_search_resource', { ...request, page: { limit: 4, token: first.page.next_token } });
      assert.deepEqual(second.page, { next_token: '', count: 2, total: 6 });
      assert.deepEqual([...first.results, ...second.results].map((r: { id: string }) => r.id), ALL_TODOS);
      await refusedEverywhere('/access/v1/search/resource', 'authzen_search_resource', { ...request, page: { limit: 3, token: first.page.next_token } }, /page\.token: the request differs/);
      await refusedEverywhere('/access/v1/search/resource', 'authzen_search_resource', { ...request, subject: subject(MORTY), page: { limit: 4, token: first.page.next_token } }, /page\.token: the request differs/);
      await refusedEverywhere('/access/v1/search/resource', 'authzen_search_resource', { ...request, page: { limit: 4, token: 'not-a-token' } }, /page\.token: not a token/);
      await refusedEverywhere('/access/v1/search/resource', 'authzen_search_resource', { ...request, page: { limit: 1001 } }, /page\.limit/);
    });

    test('subject search lists the subjects of the type that may act on the resource; a wildcard grant is id *', async () => {
      const deleters = await everywhere('/access/v1/search/subject', 'authzen_search_subject', {
        subject: { type: 'user' }, action: { name: 'can_delete_todo' }, resource: todo(MORTY),
      });
      assert.deepEqual(deleters, { page: { next_token: '', count: 2, total: 2 }, results: [subject(MORTY), subject(RICK)] });
      const readers = await everywhere('/access/v1/search/subject', 'authzen_search_subject', {
        subject: { type: 'user' }, action: { name: 'can_read_user' }, resource: { type: 'user', id: MORTY },
      });
      assert.deepEqual(readers.results, [{ type: 'user', id: '*' }]);
    });

    test('action search lists the relations of the type the subject holds, in model order, each one a permit', async () => {
      const body = await everywhere('/access/v1/search/action', 'authzen_search_action', { subject: subject(MORTY), resource: todo(MORTY) });
      const names = ['owner', 'owning_editor', 'can_read_todos', 'can_create_todo', 'can_update_todo', 'can_delete_todo'];
      assert.deepEqual(body, { page: { next_token: '', count: names.length, total: names.length }, results: names.map((name) => ({ name })) });
      const onRicks = await everywhere('/access/v1/search/action', 'authzen_search_action', { subject: subject(MORTY), resource: todo(RICK) });
      assert.deepEqual(onRicks.results, [{ name: 'can_read_todos' }, { name: 'can_create_todo' }]);
    });

    test('a search for a relation the type lacks, or a type the model lacks, is 400', async () => {
      await refusedEverywhere('/access/v1/search/resource', 'authzen_search_resource', { subject: subject(RICK), action: { name: 'can_fly' }, resource: { type: 'todo' } }, /can_fly/);
      await refusedEverywhere('/access/v1/search/subject', 'authzen_search_subject', { subject: { type: 'user' }, action: { name: 'can_read_todos' }, resource: { type: 'project', id: 'x' } }, /project/);
      await refusedEverywhere('/access/v1/search/action', 'authzen_search_action', { subject: subject(RICK), resource: { type: 'todo' } }, /resource\.id: is required/);
    });
  });

  test('metadata: the PDP identifier and exactly the endpoints served, public and cacheable', async () => {
    const res = await fetch(`${pdp.fga.server.baseUrl}/.well-known/authzen-configuration`);
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
    assert.match(res.headers.get('cache-control') ?? '', /max-age/);
    const issuer = pdp.resource.replace(/\/access\/v1$/, '');
    assert.deepEqual(await res.json(), {
      policy_decision_point: issuer,
      access_evaluation_endpoint: `${issuer}/access/v1/evaluation`,
      access_evaluations_endpoint: `${issuer}/access/v1/evaluations`,
      search_subject_endpoint: `${issuer}/access/v1/search/subject`,
      search_resource_endpoint: `${issuer}/access/v1/search/resource`,
      search_action_endpoint: `${issuer}/access/v1/search/action`,
    });
  });

  describe('callers', () => {
    const question = { subject: subject(RICK), action: { name: 'can_read_todos' }, resource: todo(RICK) };

    /** 401 with a Bearer challenge over REST, unauthenticated over GraphQL and gRPC. */
    async function refusedCaller(headers: Record<string, string>, why: string): Promise<void> {
      const rest = await pdp.post('/access/v1/evaluation', question, headers);
      assert.equal(rest.status, 401, `${why}: ${JSON.stringify(rest.body)}`);
      const challenge = rest.headers.get('www-authenticate') ?? '';
      assert.match(challenge, /^Bearer realm="/, why);
      if (headers.authorization) {
        assert.equal(rest.body.error, 'invalid_token', why);
        assert.match(challenge, /error="invalid_token"/, why);
      } else {
        assert.equal(rest.body.error, undefined, why);
        assert.doesNotMatch(challenge, /error=/, why);
      }
      for (const protocol of OTHER_PROTOCOLS) {
        const outcome: Outcome = await pdp.call(protocol, 'authzen_evaluation', question, headers);
        assert.equal(kindOf(outcome), 'unauthenticated', `${protocol} ${why}`);
      }
      const search = await pdp.post('/access/v1/search/resource', { ...question, resource: { type: 'todo' } }, headers);
      assert.equal(search.status, 401, why);
    }

    test('no token, a forged token, a user\'s token and the super-admin secret are refused', async () => {
      await refusedCaller({}, 'no token');
      await refusedCaller({ authorization: 'Bearer not.a.token' }, 'forged');
      const user = await signedInUser(pdp.fga);
      await refusedCaller(user.bearer, 'user token');
      await refusedCaller({ 'x-service-admin-secret': 'test-admin-secret' }, 'admin secret');
    });

    test('a client token for another audience, a client not granted the PDP and a deactivated client are refused', async () => {
      // The PDP's own client, with a token for itself only (no resource).
      await refusedCaller({ authorization: `Bearer ${await pdp.clientToken(pdp.client)}` }, 'no resource');
      // A client granted another resource server gets no token for the PDP, and its own token is refused.
      const other = await pdp.registerClient(['https://api.example.com/']);
      const res = await fetch(`${pdp.fga.server.baseUrl}/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${Buffer.from(`${other.clientId}:${other.secret}`).toString('base64')}` },
        body: new URLSearchParams({ grant_type: 'client_credentials', resource: pdp.resource }).toString(),
      });
      assert.equal(res.status, 400);
      assert.equal((await res.json()).error, 'invalid_target');
      await refusedCaller({ authorization: `Bearer ${await pdp.clientToken(other, 'https://api.example.com/')}` }, 'other audience');
      // A client granted the PDP and deactivated afterwards: its token stops working.
      const leaving = await pdp.registerClient([pdp.resource]);
      const token = await pdp.clientToken(leaving, pdp.resource);
      assert.equal((await pdp.post('/access/v1/evaluation', question, { authorization: `Bearer ${token}` })).status, 200);
      await adminClient(pdp.fga.server).ok('update_client', { id: leaving.id, is_active: false });
      // The client registry's cache answers for a few seconds (clients/client-auth-cache.ts).
      const deadline = Date.now() + 10_000;
      let status = 200;
      while (status === 200 && Date.now() < deadline) {
        status = (await pdp.post('/access/v1/evaluation', question, { authorization: `Bearer ${token}` })).status;
        if (status === 200) await new Promise((resolve) => setTimeout(resolve, 250));
      }
      await refusedCaller({ authorization: `Bearer ${token}` }, 'deactivated client');
    });
  });
});

describe('AuthZEN context and conditions', () => {
  let pdp: PdpServer;
  before(async () => {
    pdp = await startPdpServer();
    await pdp.fga.ok('fga_write_model', {
      dsl: `model
  schema 1.1
type user
type report
  relations
    define viewer: [user with office]
condition office(ip: ipaddress) {
  ip.in_cidr("10.0.0.0/8")
}
`,
    });
    // Conditional tuples are written to the store itself: the tuple operations take plain tuples.
    await pdp.fga.server.app.deps.fga!.store.writeTuples([{ user: 'user:ada', relation: 'viewer', object: 'report:q3', condition: { name: 'office' } }], []);
  });
  after(async () => {
    await pdp?.close();
  });

  test('the request context is the condition context of the check, over REST, GraphQL and gRPC', async () => {
    const ask = (ip: string) => ({ subject: { type: 'user', id: 'ada' }, action: { name: 'viewer' }, resource: { type: 'report', id: 'q3' }, context: { ip } });
    for (const [ip, decision] of [['10.1.2.3', true], ['192.168.1.1', false]] as const) {
      assert.deepEqual((await pdp.post('/access/v1/evaluation', ask(ip))).body, { decision }, ip);
      for (const protocol of OTHER_PROTOCOLS) assert.deepEqual(await pdp.call(protocol, 'authzen_evaluation', ask(ip)), { ok: { decision } }, `${protocol} ${ip}`);
    }
    const inOffice = await pdp.post('/access/v1/search/resource', { subject: { type: 'user', id: 'ada' }, action: { name: 'viewer' }, resource: { type: 'report' }, context: { ip: '10.0.0.9' } });
    assert.deepEqual(inOffice.body.results, [{ type: 'report', id: 'q3' }]);
    const away = await pdp.post('/access/v1/search/resource', { subject: { type: 'user', id: 'ada' }, action: { name: 'viewer' }, resource: { type: 'report' }, context: { ip: '8.8.8.8' } });
    assert.deepEqual(away.body.results, []);
  });
});
