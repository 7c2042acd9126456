/**
 * validateTuple with OpenFGA's write-validation semantics, and the request validators
 * with OpenFGA's codes. The invalid-tuple cases mirror consolidated_1_1_tests.yaml's `validation_invalid_*`
 * and `error_if_contextual_tuples_do_not_follow_type_restrictions` cases; model-conformance-codes.test.ts
 * replays the file itself.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { AppError } from '../../server/kernel/errors.ts';
import {
  FGA_ERROR,
  fgaCodeOf,
  parseModel,
  parseObject,
  parseUser,
  validateCheckRequest,
  validateExpandRequest,
  validateListObjectsRequest,
  validateListUsersRequest,
  validateTuple,
} from '../../server/modules/fga/model/index.ts';
import type { TupleKey } from '../../server/modules/fga/types.ts';

const model = parseModel(`model
  schema 1.1
type user
type employee
type group
  relations
    define member: [user, group#member]
type folder
  relations
    define viewer: [user]
type document
  relations
    define parent: [folder]
    define owner: [user]
    define viewer: [user, user:*, group#member] or owner
    define editor: owner
    define commenter: [user with in_hours, group#member]
    define reader: viewer from parent
condition in_hours(hour: int, tz: string) {
  hour >= 9 && hour < 17
}
`);

function fails(fn: () => void, code: number, pattern: RegExp): void {
  assert.throws(fn, (err: unknown) => {
    assert.ok(err instanceof AppError, `expected an AppError, got ${String(err)}`);
    assert.equal(err.kind, 'invalid_argument');
    assert.equal(fgaCodeOf(err), code, err.message);
    assert.match(err.message, pattern);
    return true;
  });
}

const tuple = (user: string, relation: string, object: string, condition?: TupleKey['condition']): TupleKey =>
  condition ? { user, relation, object, condition } : { user, relation, object };

describe('identifiers', () => {
  test('objects are type:id', () => {
    assert.deepEqual(parseObject('document:1'), { type: 'document', id: '1' });
    assert.deepEqual(parseObject('user:anne@example.com'), { type: 'user', id: 'anne@example.com' });
    for (const bad of ['document', 'document:', ':1', 'a:b:c', 'document:1#viewer', 'document:*', 'doc ument:1', `document:${'x'.repeat(260)}`]) {
      assert.equal(parseObject(bad), undefined, bad);
    }
  });

  test('users are type:id, type:* or type:id#relation', () => {
    assert.deepEqual(parseUser('user:anne'), { type: 'user', id: 'anne', wildcard: false });
    assert.deepEqual(parseUser('user:*'), { type: 'user', id: '*', wildcard: true });
    assert.deepEqual(parseUser('group:eng#member'), { type: 'group', id: 'eng', relation: 'member', wildcard: false });
    for (const bad of ['anne', 'a:b:c', 'user:*#member', 'group:eng#', 'group:eng#a#b', 'user: anne', '*', 'user:']) {
      assert.equal(parseUser(bad), undefined, bad);
    }
  });
});

describe('validateTuple accepts what the model allows', () => {
  for (const t of [
    tuple('user:anne', 'viewer', 'document:1'),
    tuple('user:*', 'viewer', 'document:1'),
    tuple('group:eng#member', 'viewer', 'document:1'),
    tuple('group:eng#member', 'member', 'group:all'),
    tuple('folder:x', 'parent', 'document:1'),
    tuple('user:anne', 'commenter', 'document:1', { name: 'in_hours' }),
    tuple('user:anne', 'commenter', 'document:1', { name: 'in_hours', context: { hour: 10, tz: 'UTC', other: true } }),
    tuple('group:eng#member', 'commenter', 'document:1'),
  ]) {
    test(`${t.object}#${t.relation}@${t.user}${t.condition ? ` with ${t.condition.name}` : ''}`, () => {
      validateTuple(model, t);
      validateTuple(model, t, { contextual: true });
    });
  }
});

describe('validateTuple refuses with invalid_tuple (2027) naming the tuple', () => {
  const cases: [string, TupleKey, RegExp][] = [
    ['an object type not in the model', tuple('user:aardvark', 'viewer', 'folder2:x'), /'folder2:x#viewer@user:aardvark': type 'folder2' is not defined/],
    ['a relation not on the object type', tuple('user:aardvark', 'writer', 'document:1'), /relation 'writer' is not defined on type 'document'/],
    ['a user type not in the model', tuple('robot:aardvark', 'viewer', 'document:1'), /type 'robot' of the user is not defined/],
    ['a user type the relation does not allow', tuple('employee:aardvark', 'viewer', 'document:1'), /the user type employee is not allowed on document#viewer \(allowed: user, user:\*, group#member\)/],
    ['a userset relation not on the user type', tuple('group:fga#undefined', 'viewer', 'document:1'), /relation 'undefined' of the user is not defined on type 'group'/],
    ['a userset the relation does not allow', tuple('group:fga#member', 'owner', 'document:1'), /the userset group#member is not allowed on document#owner/],
    ['a wildcard the relation does not allow', tuple('user:*', 'owner', 'document:1'), /the wildcard user:\* is not allowed on document#owner/],
    ['a wildcard on a tupleset relation', tuple('folder:*', 'parent', 'document:1'), /document#parent is used in a tuple-to-userset \('from parent'\) and takes plain objects only, not the wildcard folder:\*/],
    ['a relation that is not directly assignable', tuple('user:anne', 'editor', 'document:1'), /document#editor cannot be assigned directly/],
    ['a malformed user', tuple('a:b:c', 'viewer', 'document:1'), /the user 'a:b:c' is not of the form type:id, type:\* or type:id#relation/],
    ['a malformed object', tuple('user:anne', 'viewer', 'document'), /the object 'document' is not of the form type:id/],
    ['a wildcard object', tuple('user:anne', 'viewer', 'document:*'), /the object 'document:\*' is not of the form type:id/],
    ['an empty relation', tuple('user:anne', '', 'document:1'), /the user, relation and object are required strings/],
  ];
  for (const [name, t, pattern] of cases) {
    test(name, () => {
      fails(() => validateTuple(model, t), FGA_ERROR.invalidTuple, pattern);
      fails(() => validateTuple(model, t, { contextual: true }), FGA_ERROR.invalidTuple, /^invalid contextual tuple/);
    });
  }

  test('a non-object tuple', () => {
    fails(() => validateTuple(model, null as unknown as TupleKey), FGA_ERROR.invalidTuple, /a tuple is an object/);
  });
});

describe('validateTuple checks conditions (validation error 2000, as OpenFGA)', () => {
  test('a restriction that exists only with a condition requires it', () => {
    fails(() => validateTuple(model, tuple('user:anne', 'commenter', 'document:1')), FGA_ERROR.validation, /condition is missing: document#commenter allows this user only with condition in_hours/);
  });
  test('an undefined condition', () => {
    fails(() => validateTuple(model, tuple('user:anne', 'viewer', 'document:1', { name: 'nope' })), FGA_ERROR.validation, /condition 'nope' is not defined in the model/);
  });
  test('a defined condition the restriction does not name', () => {
    fails(() => validateTuple(model, tuple('user:anne', 'viewer', 'document:1', { name: 'in_hours' })), FGA_ERROR.validation, /condition 'in_hours' is not allowed for this user on document#viewer/);
  });
  test('a context value of the wrong type', () => {
    fails(
      () => validateTuple(model, tuple('user:anne', 'commenter', 'document:1', { name: 'in_hours', context: { hour: 'nine' } })),
      FGA_ERROR.validation,
      /context parameter 'hour' of condition 'in_hours' is not a valid int/,
    );
    fails(
      () => validateTuple(model, tuple('user:anne', 'commenter', 'document:1', { name: 'in_hours', context: { hour: 9.5 } })),
      FGA_ERROR.validation,
      /'hour'.*not a valid int/,
    );
  });
});

describe('request validation codes', () => {
  test('check: every problem is 2000', () => {
    validateCheckRequest(model, { user: 'user:anne', relation: 'viewer', object: 'document:1' });
    validateCheckRequest(model, { user: 'group:eng#member', relation: 'reader', object: 'document:1' });
    fails(() => validateCheckRequest(model, { user: 'user:anne', relation: 'nope', object: 'document:1' }), 2000, /relation 'nope' is not defined on type 'document'/);
    fails(() => validateCheckRequest(model, { user: 'user:anne', relation: 'viewer', object: 'team:1' }), 2000, /type 'team' is not defined/);
    fails(() => validateCheckRequest(model, { user: 'user:anne', relation: 'viewer', object: 'nope' }), 2000, /invalid 'object' field 'nope'/);
    fails(() => validateCheckRequest(model, { user: 'folder:x#writer', relation: 'viewer', object: 'document:1' }), 2000, /relation 'writer' is not defined on type 'folder'/);
    fails(() => validateCheckRequest(model, { user: 'team:x', relation: 'viewer', object: 'document:1' }), 2000, /type 'team' is not defined/);
    fails(() => validateCheckRequest(model, { user: 'a:b:c', relation: 'viewer', object: 'document:1' }), 2000, /invalid 'user' field 'a:b:c'/);
  });

  test('expand: every problem is 2000', () => {
    validateExpandRequest(model, { relation: 'viewer', object: 'document:1' });
    fails(() => validateExpandRequest(model, { relation: 'nope', object: 'document:1' }), 2000, /relation 'nope'/);
    fails(() => validateExpandRequest(model, { relation: 'viewer', object: 'team:1' }), 2000, /type 'team'/);
  });

  test('list objects: 2021 for the type, 2022 for the relation, 2000 for the user', () => {
    validateListObjectsRequest(model, { user: 'user:anne', type: 'document', relation: 'viewer' });
    fails(() => validateListObjectsRequest(model, { user: 'user:anne', type: 'team', relation: 'viewer' }), 2021, /type 'team' is not defined/);
    fails(() => validateListObjectsRequest(model, { user: 'user:anne', type: 'document', relation: 'nope' }), 2022, /relation 'nope' is not defined on type 'document'/);
    fails(() => validateListObjectsRequest(model, { user: 'team:x', type: 'document', relation: 'viewer' }), 2000, /type 'team'/);
    fails(() => validateListObjectsRequest(model, { user: 'document:x#writer', type: 'document', relation: 'viewer' }), 2000, /relation 'writer'/);
  });

  test('list users: 2021 for object and filter types, 2022 for relations, 2000 for a malformed object', () => {
    validateListUsersRequest(model, { object: 'document:1', relation: 'viewer', userFilters: [{ type: 'user' }] });
    validateListUsersRequest(model, { object: 'document:1', relation: 'viewer', userFilters: [{ type: 'group', relation: 'member' }] });
    fails(() => validateListUsersRequest(model, { object: 'team:1', relation: 'viewer', userFilters: [{ type: 'user' }] }), 2021, /type 'team'/);
    fails(() => validateListUsersRequest(model, { object: 'document:1', relation: 'nope', userFilters: [{ type: 'user' }] }), 2022, /relation 'nope'/);
    fails(() => validateListUsersRequest(model, { object: 'document:1', relation: 'viewer', userFilters: [{ type: 'team' }] }), 2021, /type 'team'/);
    fails(() => validateListUsersRequest(model, { object: 'document:1', relation: 'viewer', userFilters: [{ type: 'team', relation: 'x' }] }), 2021, /type 'team'/);
    fails(() => validateListUsersRequest(model, { object: 'document:1', relation: 'viewer', userFilters: [{ type: 'document', relation: 'writer' }] }), 2022, /relation 'writer'/);
    fails(() => validateListUsersRequest(model, { object: 'document', relation: 'viewer', userFilters: [{ type: 'user' }] }), 2000, /invalid 'object' field/);
    fails(() => validateListUsersRequest(model, { object: 'document:1', relation: 'viewer', userFilters: [] }), 2000, /at least one user filter/);
  });
});
