/**
 * The schema generator (server/transports/graphql/schema.ts), checked on the real registry and on a few
 * synthetic operations that exercise every mapping rule: nullability, lists, Int64 and Map, the `Input`
 * suffix, argument shapes. Execution here is in-process graphql-js, no server.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  GraphQLInputObjectType, GraphQLObjectType, graphql, parse, printSchema, validate, type GraphQLField, type GraphQLSchema,
} from 'graphql';
import { registry } from '../../server/ops/registry.ts';
import { defineOperation, type AnyOperation } from '../../server/ops/define.ts';
import { s, MessageResponse } from '../../server/ops/schema.ts';
import { buildGraphqlSchema } from '../../server/transports/graphql/schema.ts';
import { graphqlRequestFor, selectionFor } from '../../server/transports/graphql/selection.ts';

function rootField(schema: GraphQLSchema, name: string): GraphQLField<unknown, unknown> {
  const field = schema.getQueryType()?.getFields()[name] ?? schema.getMutationType()?.getFields()[name];
  assert.ok(field, `no root field ${name}`);
  return field;
}

function fieldTypes(schema: GraphQLSchema, typeName: string): Record<string, string> {
  const type = schema.getType(typeName);
  assert.ok(type instanceof GraphQLObjectType || type instanceof GraphQLInputObjectType, `no object type ${typeName}`);
  return Object.fromEntries(Object.values(type.getFields()).map((f) => [f.name, String(f.type)]));
}

describe('GraphQL schema of the registry', () => {
  const schema = buildGraphqlSchema(registry.all);

  test('names the types after the schema $id', () => {
    for (const name of ['Meta', 'AdminMeta', 'AdminLoginRequest', 'Response']) assert.ok(schema.getType(name), name);
    assert.ok(schema.getType('AdminLoginRequest') instanceof GraphQLInputObjectType);
    assert.ok(schema.getType('Response') instanceof GraphQLObjectType);
    assert.equal(schema.getType('Empty'), undefined, 'operations without input take no argument, so no Empty type');
  });

  test('admin fields carry the underscore prefix and public ones do not', () => {
    for (const op of registry.all) {
      const field = rootField(schema, op.graphqlName);
      assert.equal(field.name.startsWith('_'), op.admin, field.name);
    }
    assert.equal(rootField(schema, 'meta').name, 'meta');
    assert.ok(schema.getMutationType()?.getFields()['_admin_login']);
    assert.ok(schema.getQueryType()?.getFields()['_admin_meta']);
  });

  test('required is non-null, lists are [T!], arguments follow the operation', () => {
    assert.equal(String(rootField(schema, 'meta').type), 'Meta!');
    assert.deepEqual(rootField(schema, 'meta').args, []);
    assert.deepEqual(rootField(schema, '_admin_login').args.map((a) => `${a.name}: ${a.type}`), ['params: AdminLoginRequest!']);
    assert.deepEqual(fieldTypes(schema, 'AdminLoginRequest'), { admin_secret: 'String!' });
    const adminMeta = fieldTypes(schema, 'AdminMeta');
    assert.equal(adminMeta.roles, '[String!]!');
    assert.equal(adminMeta.is_sign_up_enabled, 'Boolean!');
    assert.equal(fieldTypes(schema, 'Response').message, 'String!');
  });

  test('the deprecated mutations take an optional Map argument named params', () => {
    for (const name of ['_admin_signup', '_update_env', '_generate_jwt_keys']) {
      assert.deepEqual(rootField(schema, name).args.map((a) => `${a.name}: ${a.type}`), ['params: Map'], name);
      assert.equal(String(rootField(schema, name).type), 'Response!');
    }
    assert.match(printSchema(schema), /^scalar Map$/m);
  });
});

// Synthetic operations covering the rules the registry does not exercise yet.
const Item = s.object('Item', { id: s.string(), count: s.optional(s.int()) });
const Profile = s.object('Profile', {
  name: s.string(),
  born_at: s.optional(s.int64()),
  data: s.optional(s.map()),
  tags: s.list(s.string()),
  items: s.optional(s.list(Item)),
});
const UpdateProfileRequest = s.object('UpdateProfileRequest', { profile: Profile, note: s.optional(s.string()) });
const ProfileQuery = s.object('ProfileQuery', { name: s.optional(s.string()) });
const SearchRequest = s.object('SearchRequest', { q: s.string(), limit: s.optional(s.int()), since: s.optional(s.int64()) });

const base = { admin: false, description: 'test', auth: 'public', handler: async () => ({}) as never } as const;
const syntheticOps = [
  defineOperation({ ...base, name: 'profile', kind: 'query', input: ProfileQuery, output: Profile, graphql: { nullableArg: true } }),
  defineOperation({ ...base, name: 'update_profile', kind: 'mutation', input: UpdateProfileRequest, output: Profile }),
  defineOperation({ ...base, name: 'search', kind: 'query', input: SearchRequest, output: MessageResponse, graphql: { flatArgs: true } }),
  defineOperation({ ...base, name: 'rename', admin: true, kind: 'mutation', input: ProfileQuery, output: MessageResponse, graphql: { argName: 'input' } }),
] as unknown as AnyOperation[];

describe('GraphQL schema mapping rules', () => {
  const calls: { op: string; input: unknown }[] = [];
  const schema = buildGraphqlSchema(syntheticOps, async (op, input) => {
    calls.push({ op: op.name, input });
    if (op.output === MessageResponse) return { message: 'ok' };
    return { name: 'n', born_at: '9007199254740991', data: { a: [1, { b: null }] }, tags: ['x'], items: [{ id: 'i1' }] };
  });

  test('an $id used as input and output gets the Input suffix on its input side', () => {
    assert.deepEqual(fieldTypes(schema, 'Profile'), {
      name: 'String!', born_at: 'Int64', data: 'Map', tags: '[String!]!', items: '[Item!]',
    });
    assert.deepEqual(fieldTypes(schema, 'ProfileInput'), {
      name: 'String!', born_at: 'Int64', data: 'Map', tags: '[String!]!', items: '[ItemInput!]',
    });
    assert.deepEqual(fieldTypes(schema, 'ItemInput'), { id: 'String!', count: 'Int' });
    assert.deepEqual(fieldTypes(schema, 'UpdateProfileRequest'), { profile: 'ProfileInput!', note: 'String' });
    assert.equal(schema.getType('UpdateProfileRequestInput'), undefined);
  });

  test('argument shapes: nullableArg, renamed, flatArgs', () => {
    const args = (name: string) => rootField(schema, name).args.map((a) => `${a.name}: ${a.type}`);
    assert.deepEqual(args('profile'), ['params: ProfileQuery']);
    assert.deepEqual(args('update_profile'), ['params: UpdateProfileRequest!']);
    assert.deepEqual(args('search'), ['q: String!', 'limit: Int', 'since: Int64']);
    assert.deepEqual(args('_rename'), ['input: ProfileQuery!']);
  });

  test('arguments reach the runner as the operation input; Int64 accepts numeric strings, answers numbers', async () => {
    calls.length = 0;
    const result = await graphql({
      schema,
      source: `query($since: Int64) {
        search(q: "a", since: $since) { message }
        profile { name born_at data tags items { id count } }
      }`,
      variableValues: { since: '1700000000000' },
    });
    assert.equal(result.errors, undefined, JSON.stringify(result.errors));
    assert.deepEqual(calls, [
      { op: 'search', input: { q: 'a', since: 1700000000000 } },
      { op: 'profile', input: undefined },
    ]);
    assert.deepEqual(JSON.parse(JSON.stringify(result.data)).profile, {
      name: 'n', born_at: 9007199254740991, data: { a: [1, { b: null }] }, tags: ['x'], items: [{ id: 'i1', count: null }],
    });
  });

  test('Int64 and Map refuse what they cannot represent', async () => {
    const bad = await graphql({ schema, source: 'query($s: Int64) { search(q: "a", since: $s) { message } }', variableValues: { s: '12abc' } });
    assert.match(bad.errors?.[0]?.message ?? '', /Int64 cannot represent/);
    const tooBig = await graphql({ schema, source: 'query { search(q: "a", since: 9007199254740993) { message } }' });
    assert.match(tooBig.errors?.[0]?.message ?? '', /Int64 cannot represent/);
    const notObject = await graphql({
      schema,
      source: 'mutation($p: UpdateProfileRequest!) { update_profile(params: $p) { name } }',
      variableValues: { p: { profile: { name: 'n', tags: [], data: [1] } } },
    });
    assert.match(notObject.errors?.[0]?.message ?? '', /Map expects a JSON object/);
    const literal = await graphql({
      schema,
      source: 'mutation { update_profile(params: {profile: {name: "n", tags: ["t"], data: {k: [1, "two"]}, born_at: "5"}}) { name } }',
    });
    assert.equal(literal.errors, undefined, JSON.stringify(literal.errors));
    // Literal input objects come without a prototype; compare them as JSON.
    assert.deepEqual(JSON.parse(JSON.stringify(calls.at(-1))), { op: 'update_profile', input: { profile: { name: 'n', tags: ['t'], data: { k: [1, 'two'] }, born_at: 5 } } });
  });

  test('two different shapes under one $id are refused at build time', () => {
    const Other = s.object('Profile', { name: s.string() });
    const clash = defineOperation({ ...base, name: 'clash', kind: 'query', input: ProfileQuery, output: Other }) as unknown as AnyOperation;
    assert.throws(() => buildGraphqlSchema([...syntheticOps, clash]), /GraphQL type Profile has two different definitions/);
  });
});

describe('selection helpers for other tests', () => {
  test('selectionFor names every field, nested objects and lists of objects included', () => {
    assert.equal(selectionFor(Profile), '{ name born_at data tags items { id count } }');
  });

  test('graphqlRequestFor builds a valid document for every operation', () => {
    for (const ops of [registry.all, syntheticOps]) {
      const schema = buildGraphqlSchema(ops);
      for (const op of ops) {
        const { query } = graphqlRequestFor(schema, op, {});
        assert.deepEqual(validate(schema, parse(query)), [], query);
      }
    }
    const schema = buildGraphqlSchema(syntheticOps);
    const search = graphqlRequestFor(schema, syntheticOps[2]!, { q: 'a', limit: 3 });
    assert.equal(search.query, 'query Call($q: String!, $limit: Int, $since: Int64) { search(q: $q, limit: $limit, since: $since) { message } }');
    assert.deepEqual(search.variables, { q: 'a', limit: 3 });
    const update = graphqlRequestFor(schema, syntheticOps[1]!, { profile: { name: 'n', tags: [] } });
    assert.match(update.query, /^mutation Call\(\$params: UpdateProfileRequest!\) \{ update_profile\(params: \$params\) \{ name /);
    assert.deepEqual(update.variables, { params: { profile: { name: 'n', tags: [] } } });
  });
});
