/**
 * The AuthZEN interop "Todo" application (the openid/authzen interop scenario) as an FGA model and tuples:
 * Rick (admin, evil_genius), Morty and Summer (editors), Beth and Jerry (viewers), each owning one todo;
 * everyone reads users and todos, admins and editors create, evil geniuses and owning editors update, admins
 * and owning editors delete. The roles are relations of one `todo_app` object every todo points to.
 */
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

export const RICK = 'rick@the-citadel.com';
export const MORTY = 'morty@the-citadel.com';
export const SUMMER = 'summer@the-smiths.com';
export const BETH = 'beth@the-smiths.com';
export const JERRY = 'jerry@the-smiths.com';

/** Each person's roles and the todo they own (ids of the interop scenario). */
export const PEOPLE = [
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


/** The todo each person owns. */
export const TODO_OF = Object.fromEntries(PEOPLE.map((person) => [person.email, person.owns])) as Record<string, string>;
