/**
 * parseModel (docs/operations.md): OpenFGA DSL schema 1.1 checked with OpenFGA's own rules; each class of
 * problem is refused as invalid_argument with a readable message (1-based line numbers) and OpenFGA's
 * code in the detail. Also the TypeSystem lookups over a parsed model.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { AppError } from '../../server/kernel/errors.ts';
import { FGA_ERROR, fgaCodeOf, parseModel, TypeSystem, typeSystemFor } from '../../server/modules/fga/model/index.ts';

const HEADER = 'model\n  schema 1.1\n';

function refused(dsl: string, code: number, pattern: RegExp): void {
  assert.throws(
    () => parseModel(dsl),
    (err: unknown) => {
      assert.ok(err instanceof AppError, `expected an AppError, got ${String(err)}`);
      assert.equal(err.kind, 'invalid_argument');
      assert.equal(fgaCodeOf(err), code, err.message);
      assert.match(err.message, pattern);
      return true;
    },
  );
}

const DOCS = `${HEADER}type user
type group
  relations
    define member: [user, group#member]
type folder
  relations
    define owner: [user]
    define viewer: [user, user:*, group#member] or owner
type document
  relations
    define parent: [folder]
    define blocked: [user]
    define editor: [user] and viewer
    define viewer: ([user] or viewer from parent) but not blocked
`;

describe('parseModel accepts valid schema 1.1 models', () => {
  test('types, usersets, wildcards, computed usersets, tuple-to-userset, union, intersection and exclusion', () => {
    const model = parseModel(DOCS);
    assert.equal(model.schema_version, '1.1');
    assert.deepEqual(model.type_definitions.map((t) => t.type), ['user', 'group', 'folder', 'document']);
    const document = model.type_definitions.find((t) => t.type === 'document')!;
    assert.ok(document.relations!.viewer!.difference, 'viewer is an exclusion');
    assert.deepEqual(document.relations!.editor!.intersection!.child.length, 2);
    assert.deepEqual(document.relations!.viewer!.difference!.base.union!.child[1], {
      tupleToUserset: { tupleset: { relation: 'parent' }, computedUserset: { relation: 'viewer' } },
    });
  });

  test('a model with conditions keeps them', () => {
    const model = parseModel(`${HEADER}type user
type document
  relations
    define viewer: [user with in_hours]
condition in_hours(hour: int) {
  hour >= 9 && hour < 17
}
`);
    assert.ok(model.conditions?.in_hours);
    assert.deepEqual(model.type_definitions[1]!.metadata!.relations!.viewer!.directly_related_user_types, [{ type: 'user', condition: 'in_hours' }]);
  });

  test('a tuple-to-userset over a conditional tupleset passes (the validator crash on it is worked around)', () => {
    const model = parseModel(`${HEADER}type user
type folder
  relations
    define viewer: [user]
type document
  relations
    define parent: [folder with small]
    define viewer: viewer from parent
condition small(x: int) {
  x < 100
}
`);
    assert.equal(model.type_definitions.length, 3);
  });

  test('the same failure mode still reports an undefined condition', () => {
    refused(
      `${HEADER}type user
type folder
  relations
    define viewer: [user]
type document
  relations
    define parent: [folder with nope]
    define viewer: viewer from parent
`,
      FGA_ERROR.invalidModel,
      /nope/,
    );
  });

  test('a type with no relations is a valid model', () => {
    assert.equal(parseModel(`${HEADER}type user\n`).type_definitions.length, 1);
  });
});

describe('parseModel refuses invalid models with a readable message', () => {
  test('an empty or blank DSL', () => {
    refused('', FGA_ERROR.invalidModel, /the model is empty/);
    refused('  \n\t\n', FGA_ERROR.invalidModel, /the model is empty/);
  });

  test('a syntax error names its 1-based line', () => {
    refused(`${HEADER}type user\n  relations\n    define : [user\n`, FGA_ERROR.validation, /^syntax error in the authorization model: .*line 5, column 12/);
  });

  test('an undefined type in a restriction', () => {
    refused(`${HEADER}type document\n  relations\n    define viewer: [user]\n`, FGA_ERROR.invalidModel, /line 5, column \d+: `user` is not a valid type/);
  });

  test('an undefined relation in a rewrite', () => {
    refused(`${HEADER}type user\ntype document\n  relations\n    define viewer: editor\n`, FGA_ERROR.invalidModel, /the relation `editor` does not exist/);
  });

  test('an undefined relation in a userset restriction', () => {
    refused(
      `${HEADER}type user\ntype group\n  relations\n    define member: [user]\ntype document\n  relations\n    define viewer: [group#nope]\n`,
      FGA_ERROR.invalidModel,
      /`nope` is not a valid relation for `group`/,
    );
  });

  test('a tuple-to-userset over a relation that is not direct', () => {
    refused(
      `${HEADER}type user\ntype folder\n  relations\n    define viewer: [user]\ntype document\n  relations\n    define owner: [folder]\n    define parent: owner\n    define viewer: viewer from parent\n`,
      FGA_ERROR.invalidModel,
      /`parent` relation used inside from allows only direct relation/,
    );
  });

  test('a tuple-to-userset whose computed relation no tupleset type has', () => {
    refused(
      `${HEADER}type user\ntype folder\n  relations\n    define viewer: [user]\ntype document\n  relations\n    define parent: [folder]\n    define viewer: editor from parent\n`,
      FGA_ERROR.invalidModel,
      /`editor` does not exist on `parent`/,
    );
  });

  test('a cycle that cannot resolve lists every relation in it', () => {
    refused(
      `${HEADER}type user\ntype document\n  relations\n    define a: b\n    define b: a\n`,
      FGA_ERROR.invalidModel,
      /^invalid authorization model: 2 problems: line 6, column \d+: `a` is an impossible relation for `document` \(potential loop\); line 7, .*`b`/,
    );
  });

  test('a relation that can only reach itself through a tuple-to-userset has no entry point', () => {
    refused(
      `${HEADER}type user\ntype folder\n  relations\n    define parent: [folder]\n    define viewer: viewer from parent\n`,
      FGA_ERROR.invalidModel,
      /`viewer` is an impossible relation for `folder` \(no entrypoint\)/,
    );
  });

  test('a duplicate type and a duplicate relation', () => {
    refused(`${HEADER}type user\ntype user\n`, FGA_ERROR.invalidModel, /the type `user` is a duplicate/);
    refused(`${HEADER}type user\ntype doc\n  relations\n    define viewer: [user]\n    define viewer: [user]\n`, FGA_ERROR.validation, /'viewer' is already defined in 'doc'/);
  });

  test('reserved relation names', () => {
    refused(`${HEADER}type user\ntype doc\n  relations\n    define this: [user]\n`, FGA_ERROR.invalidModel, /cannot be named 'self' or 'this'/);
  });

  test('an undefined and an unused condition', () => {
    refused(`${HEADER}type user\ntype doc\n  relations\n    define viewer: [user with nope]\n`, FGA_ERROR.invalidModel, /`nope` is not a defined condition/);
    refused(`${HEADER}type user\ntype doc\n  relations\n    define viewer: [user]\ncondition c(x: int) {\n  x < 1\n}\n`, FGA_ERROR.invalidModel, /`c` condition is not used/);
  });

  test('schema versions other than 1.1, and a missing schema', () => {
    refused('model\n  schema 1.0\ntype user\n', FGA_ERROR.unsupportedSchemaVersion, /invalid schema 1\.0/);
    refused('model\n  schema 1.2\ntype user\n', FGA_ERROR.unsupportedSchemaVersion, /schema 1\.2 is not supported; use schema 1\.1/);
    refused('module docs\ntype user\n', FGA_ERROR.unsupportedSchemaVersion, /schema version required/);
    refused('model\ntype user\n', FGA_ERROR.validation, /expecting 'schema'/);
  });

  test('a model without types', () => {
    refused(HEADER, FGA_ERROR.invalidModel, /the model defines no types/);
  });

  test('a DSL larger than 64 KiB', () => {
    refused(`${HEADER}type user\n${'# padding\n'.repeat(7_000)}`, FGA_ERROR.invalidModel, /larger than 65536 bytes/);
  });
});

describe('TypeSystem', () => {
  const ts = new TypeSystem(parseModel(DOCS));

  test('types and relations', () => {
    assert.deepEqual(ts.typeNames(), ['user', 'group', 'folder', 'document']);
    assert.equal(ts.hasType('folder'), true);
    assert.equal(ts.hasType('team'), false);
    assert.deepEqual(ts.relationNames('document'), ['parent', 'blocked', 'editor', 'viewer']);
    assert.equal(ts.hasRelation('document', 'viewer'), true);
    assert.equal(ts.hasRelation('document', 'owner'), false);
    assert.equal(ts.hasRelation('document', 'constructor'), false, 'prototype keys are not relations');
    assert.equal(ts.hasRelation('team', 'viewer'), false);
    assert.deepEqual(ts.relation('folder', 'owner'), { this: {} });
    assert.equal(ts.schemaVersion, '1.1');
  });

  test('directly related types and what they allow', () => {
    assert.deepEqual(ts.directlyRelatedTypes('folder', 'viewer'), [{ type: 'user' }, { type: 'user', wildcard: {} }, { type: 'group', relation: 'member' }]);
    assert.deepEqual(ts.directlyRelatedTypes('folder', 'nope'), []);
    assert.equal(ts.allowsDirectType('folder', 'viewer', 'user'), true);
    assert.equal(ts.allowsDirectType('folder', 'viewer', 'group'), false);
    assert.equal(ts.isWildcardAllowed('folder', 'viewer', 'user'), true);
    assert.equal(ts.isWildcardAllowed('folder', 'owner', 'user'), false);
    assert.equal(ts.allowsUserset('folder', 'viewer', 'group', 'member'), true);
    assert.equal(ts.allowsUserset('folder', 'viewer', 'group', 'owner'), false);
  });

  test('direct assignability looks for `this` anywhere in the rewrite', () => {
    assert.equal(ts.isDirectlyAssignable('document', 'viewer'), true, 'inside the base of an exclusion');
    assert.equal(ts.isDirectlyAssignable('document', 'editor'), true, 'inside an intersection');
    assert.equal(ts.isDirectlyAssignable('folder', 'viewer'), true);
    const computed = new TypeSystem(parseModel(`${HEADER}type user\ntype doc\n  relations\n    define owner: [user]\n    define viewer: owner\n`));
    assert.equal(computed.isDirectlyAssignable('doc', 'viewer'), false);
  });

  test('tupleset relations', () => {
    assert.deepEqual([...ts.tuplesetRelations('document')], ['parent']);
    assert.equal(ts.isTuplesetRelation('document', 'parent'), true);
    assert.equal(ts.isTuplesetRelation('document', 'viewer'), false);
    assert.equal(ts.isTuplesetRelation('folder', 'parent'), false);
  });

  test('typeSystemFor keeps one instance per model object', () => {
    const model = parseModel(DOCS);
    assert.equal(typeSystemFor(model), typeSystemFor(model));
    assert.equal(typeSystemFor(ts), ts);
  });
});
