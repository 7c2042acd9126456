/**
 * The AuthZEN interop "Todo" application's decision table (the openid/authzen interop scenario), rebuilt as
 * an FGA model and tuples: Rick (admin, evil_genius), Morty and Summer (editors), Beth and Jerry (viewers);
 * everyone reads users and todos, admins and editors create, evil geniuses and owning editors update, admins
 * and owning editors delete. Every row is asked through POST /access/v1/evaluation, as the same evaluation
 * over GraphQL and gRPC, and as check_permissions' question for the same user, relation and object: all
 * answers must be the row's expected decision (docs/authzen.md#mapping).
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startPdpServer, type PdpServer } from './authzen-support.ts';
import { BETH, JERRY, MORTY, RICK, SUMMER, TODO_MODEL, todoTuples } from './authzen-todo-fixture.ts';

type Row = [subject: string, action: string, type: 'user' | 'todo', id: string, expected: boolean];

const T = (suffix: string) => `7240d0db-8ff0-41ec-98b2-34a096273b${suffix}`;

/** The scenario's decision table, row by row. */
const DECISIONS: Row[] = [
  [RICK, 'can_read_user', 'user', BETH, true],
  [RICK, 'can_read_user', 'user', RICK, true],
  [RICK, 'can_read_todos', 'todo', 'todo-1', true],
  [RICK, 'can_create_todo', 'todo', 'todo-1', true],
  [RICK, 'can_update_todo', 'todo', T('92'), true],
  [RICK, 'can_update_todo', 'todo', T('91'), true],
  [RICK, 'can_delete_todo', 'todo', T('92'), true],
  [RICK, 'can_delete_todo', 'todo', T('91'), true],
  [MORTY, 'can_read_user', 'user', BETH, true],
  [MORTY, 'can_read_user', 'user', MORTY, true],
  [MORTY, 'can_read_todos', 'todo', 'todo-1', true],
  [MORTY, 'can_create_todo', 'todo', 'todo-1', true],
  [MORTY, 'can_update_todo', 'todo', T('92'), false],
  [MORTY, 'can_update_todo', 'todo', T('91'), true],
  [MORTY, 'can_delete_todo', 'todo', T('92'), false],
  [MORTY, 'can_delete_todo', 'todo', T('91'), true],
  [SUMMER, 'can_read_user', 'user', BETH, true],
  [SUMMER, 'can_read_user', 'user', SUMMER, true],
  [SUMMER, 'can_read_todos', 'todo', 'todo-1', true],
  [SUMMER, 'can_create_todo', 'todo', 'todo-1', true],
  [SUMMER, 'can_update_todo', 'todo', T('92'), false],
  [SUMMER, 'can_update_todo', 'todo', T('93'), true],
  [SUMMER, 'can_delete_todo', 'todo', T('92'), false],
  [SUMMER, 'can_delete_todo', 'todo', T('93'), true],
  [BETH, 'can_read_user', 'user', BETH, true],
  // The scenario asks this row twice.
  [BETH, 'can_read_user', 'user', BETH, true],
  [BETH, 'can_read_todos', 'todo', 'todo-1', true],
  [BETH, 'can_create_todo', 'todo', 'todo-1', false],
  [BETH, 'can_update_todo', 'todo', T('92'), false],
  [BETH, 'can_update_todo', 'todo', T('94'), false],
  [BETH, 'can_delete_todo', 'todo', T('92'), false],
  [BETH, 'can_delete_todo', 'todo', T('94'), false],
  [JERRY, 'can_read_user', 'user', BETH, true],
  [JERRY, 'can_read_user', 'user', JERRY, true],
  [JERRY, 'can_read_todos', 'todo', 'todo-1', true],
  [JERRY, 'can_create_todo', 'todo', 'todo-1', false],
  [JERRY, 'can_update_todo', 'todo', T('92'), false],
  [JERRY, 'can_update_todo', 'todo', T('95'), false],
  [JERRY, 'can_delete_todo', 'todo', T('92'), false],
  [JERRY, 'can_delete_todo', 'todo', T('95'), false],
];

function evaluationOf([subject, action, type, id]: Row) {
  return { subject: { type: 'user', id: subject }, action: { name: action }, resource: { type, id } };
}

describe('AuthZEN Todo decision table', () => {
  let pdp: PdpServer;
  before(async () => {
    pdp = await startPdpServer();
    await pdp.fga.ok('fga_write_model', { dsl: TODO_MODEL });
    await pdp.fga.ok('fga_write_tuples', { tuples: todoTuples() });
  });
  after(async () => {
    await pdp?.close();
  });

  test('every row through POST /access/v1/evaluation, with the row\'s expected decision', async () => {
    assert.equal(DECISIONS.length, 40);
    for (const row of DECISIONS) {
      const reply = await pdp.post('/access/v1/evaluation', evaluationOf(row));
      assert.equal(reply.status, 200, JSON.stringify(reply.body));
      assert.deepEqual(reply.body, { decision: row[4] }, row.join(' '));
      assert.match(reply.headers.get('content-type') ?? '', /^application\/json/);
      assert.equal(reply.headers.get('cache-control'), 'no-store');
    }
  });

  test('every row as authzen_evaluation over GraphQL and gRPC', async () => {
    for (const protocol of ['graphql', 'grpc'] as const) {
      for (const row of DECISIONS) {
        assert.deepEqual(await pdp.call(protocol, 'authzen_evaluation', evaluationOf(row)), { ok: { decision: row[4] } }, `${protocol}: ${row.join(' ')}`);
      }
    }
  });

  test('each decision equals check_permissions\' answer for the same user, relation and object', async () => {
    for (const row of DECISIONS) {
      const [subject, action, type, id, expected] = row;
      const checked = await pdp.fga.ok('check_permissions', { user: `user:${subject}`, checks: [{ relation: action, object: `${type}:${id}` }] });
      assert.equal(checked.results[0].allowed, expected, `check_permissions: ${row.join(' ')}`);
    }
  });

  test('the whole table as one batch, in order, over REST, GraphQL and gRPC', async () => {
    const batch = { evaluations: DECISIONS.map(evaluationOf) };
    const expected = { evaluations: DECISIONS.map((row) => ({ decision: row[4] })) };
    const rest = await pdp.post('/access/v1/evaluations', batch);
    assert.equal(rest.status, 200, JSON.stringify(rest.body));
    assert.deepEqual(rest.body, expected);
    for (const protocol of ['graphql', 'grpc'] as const) {
      assert.deepEqual(await pdp.call(protocol, 'authzen_evaluations', batch), { ok: expected }, protocol);
    }
  });
});
