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

export const TODO_MODEL = `model
  schema 1.1
type user
  relations
    define can_read_user: [user:*]
type todo_app
  relations
    define admin: [user]
    define editor: [user]
    define viewer: [user]
    define evil_genius: [user]
type todo
  relations
    define app: [todo_app]
    define owner: [user]
    define owning_editor: owner and editor from app
    define can_read_todos: viewer from app or editor from app or admin from app or evil_genius from app
    define can_create_todo: admin from app or editor from app
    define can_update_todo: evil_genius from app or owning_editor
    define can_delete_todo: admin from app or owning_editor
`;

const RICK = 'rick@the-citadel.com';
const MORTY = 'morty@the-citadel.com';
const SUMMER = 'summer@the-smiths.com';
const BETH = 'beth@the-smiths.com';
const JERRY = 'jerry@the-smiths.com';

/** Each person's roles and the todo they own (ids of the interop scenario). */
const PEOPLE = [
  { email: RICK, roles: ['admin', 'evil_genius'], owns: '7240d0db-8ff0-41ec-98b2-34a096273b92' },
  { email: MORTY, roles: ['editor'], owns: '7240d0db-8ff0-41ec-98b2-34a096273b91' },
  { email: SUMMER, roles: ['editor'], owns: '7240d0db-8ff0-41ec-98b2-34a096273b93' },
  { email: BETH, roles: ['viewer'], owns: '7240d0db-8ff0-41ec-98b2-34a096273b94' },
  { email: JERRY, roles: ['viewer'], owns: '7240d0db-8ff0-41ec-98b2-34a096273b95' },
];

export function todoTuples() {
  const tuples: { user: string; relation: string; object: string }[] = [];
  for (const person of PEOPLE) {
    for (const role of person.roles) tuples.push({ user: `user:${person.email}`, relation: role, object: 'todo_app:citadel' });
    tuples.push({ user: `user:${person.email}`, relation: 'owner', object: `todo:${person.owns}` });
    tuples.push({ user: 'todo_app:citadel', relation: 'app', object: `todo:${person.owns}` });
    tuples.push({ user: 'user:*', relation: 'can_read_user', object: `user:${person.email}` });
  }
  tuples.push({ user: 'todo_app:citadel', relation: 'app', object: 'todo:todo-1' });
  return tuples;
}

type Row = [subject: string, action: string, type: 'user' | 'todo', id: string, expected: boolean];

const T = (suffix: string) => `7240d0db-8ff0-41ec-98b2-34a096273b${suffix}`;

/** The scenario's decision table, row by row. */
export const DECISIONS: Row[] = [
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

export function evaluationOf([subject, action, type, id]: Row) {
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
    assert.equal(DECISIONS.length, 39);
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
