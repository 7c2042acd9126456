/**
 * The GraphQL schema, generated from the operation registry and nothing else
 * (docs/architecture.md#one-operation-three-protocols). Pure: operations in, GraphQLSchema out, so a test or a build step can print the SDL.
 *
 * Mapping rules: a required property is non-null and an optional one nullable; lists are `[T!]`; named
 * objects keep their `$id` as type name (docs/sdk-compatibility.md: the SDK sends `SignUpRequest`, `LoginRequest`, ...), and an
 * `$id` used both as input and as output gets the `Input` suffix on its input side. Each operation takes one
 * argument (`params` unless renamed, non-null unless `nullableArg`), none when its input has no properties,
 * or one argument per input property with `flatArgs`. Admin fields arrive `_`-prefixed in `graphqlName`.
 */
import {
  GraphQLBoolean,
  GraphQLInputObjectType,
  GraphQLInt,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLSchema,
  GraphQLString,
  type GraphQLFieldConfigArgumentMap,
  type GraphQLFieldConfigMap,
  type GraphQLInputType,
  type GraphQLOutputType,
  type GraphQLScalarType,
} from 'graphql';
import type { AnyOperation } from '../../ops/define.ts';
import { isListSchema, isObjectSchema, isRequired, objectName, scalarKind, type ScalarKind, type TObject, type TSchema } from '../../ops/schema.ts';
import { Int64Scalar, MapScalar } from './scalars.ts';

/** Runs one operation for a root field; the transport supplies it (absent when only the SDL is wanted). */
export type OperationRunner = (op: AnyOperation, input: unknown, context: unknown) => Promise<unknown>;

const SCALARS: Record<ScalarKind, GraphQLScalarType> = {
  String: GraphQLString,
  Boolean: GraphQLBoolean,
  Int: GraphQLInt,
  Int64: Int64Scalar,
  Map: MapScalar,
};

function propertiesOf(schema: TObject): [string, TSchema][] {
  return Object.entries(schema.properties ?? {}) as [string, TSchema][];
}

export function takesNoArgument(op: AnyOperation): boolean {
  return propertiesOf(op.input).length === 0;
}

/** The raw operation input carried by a root field's arguments (the inverse of the argument rules above). */
export function inputFromArgs(op: AnyOperation, args: Record<string, unknown>): unknown {
  if (takesNoArgument(op)) return {};
  if (op.graphql?.flatArgs) return args;
  return args[op.graphqlArgName];
}

/** Every `$id` reachable from a schema, so input types that share a name with an output can be renamed. */
function collectObjectNames(schema: TSchema, into: Set<string>): Set<string> {
  if (scalarKind(schema) !== undefined) return into;
  if (isListSchema(schema)) return collectObjectNames(schema.items as TSchema, into);
  if (isObjectSchema(schema)) {
    into.add(objectName(schema));
    for (const [, property] of propertiesOf(schema)) collectObjectNames(property, into);
  }
  return into;
}

type Direction = 'input' | 'output';

function createTypeFactory(outputNames: ReadonlySet<string>) {
  const built = new Map<string, { schema: TObject; type: GraphQLObjectType | GraphQLInputObjectType }>();

  /** One GraphQL type per name; two different shapes under one `$id` are a definition bug, caught at start. */
  function named<T extends GraphQLObjectType | GraphQLInputObjectType>(
    direction: Direction, schema: TObject, where: string, make: (name: string) => T,
  ): T {
    const id = objectName(schema);
    const name = direction === 'input' && outputNames.has(id) ? `${id}Input` : id;
    const key = `${direction}:${name}`;
    const existing = built.get(key);
    if (existing) {
      if (existing.schema !== schema && JSON.stringify(existing.schema) !== JSON.stringify(schema)) {
        throw new Error(`GraphQL type ${name} has two different definitions (second one at ${where})`);
      }
      return existing.type as T;
    }
    if (propertiesOf(schema).length === 0) throw new Error(`GraphQL type ${name} at ${where} has no fields`);
    const type = make(name);
    built.set(key, { schema, type });
    return type;
  }

  function fieldType(direction: Direction, schema: TSchema, where: string): GraphQLOutputType & GraphQLInputType {
    const scalar = scalarKind(schema);
    if (scalar !== undefined) return SCALARS[scalar];
    if (isListSchema(schema)) {
      const item = fieldType(direction, schema.items as TSchema, `${where}[]`);
      return new GraphQLList(new GraphQLNonNull(item)) as GraphQLOutputType & GraphQLInputType;
    }
    if (isObjectSchema(schema)) {
      return (direction === 'input' ? inputObject(schema, where) : outputObject(schema, where)) as GraphQLOutputType & GraphQLInputType;
    }
    throw new Error(`unsupported schema at ${where}: only s.* schemas map onto GraphQL`);
  }

  function wrapped(direction: Direction, parent: TObject, field: string, schema: TSchema, where: string) {
    const type = fieldType(direction, schema, where);
    return isRequired(parent, field) ? new GraphQLNonNull(type) : type;
  }

  function outputObject(schema: TObject, where: string): GraphQLObjectType {
    return named('output', schema, where, (name) => new GraphQLObjectType({
      name,
      description: schema.description,
      fields: () => {
        const fields: GraphQLFieldConfigMap<unknown, unknown> = {};
        for (const [field, property] of propertiesOf(schema)) {
          fields[field] = { type: wrapped('output', schema, field, property, `${name}.${field}`), description: property.description };
        }
        return fields;
      },
    }));
  }

  function inputObject(schema: TObject, where: string): GraphQLInputObjectType {
    return named('input', schema, where, (name) => new GraphQLInputObjectType({
      name,
      description: schema.description,
      fields: () => Object.fromEntries(propertiesOf(schema).map(([field, property]) => [
        field,
        { type: wrapped('input', schema, field, property, `${name}.${field}`) as GraphQLInputType, description: property.description },
      ])),
    }));
  }

  function argumentsOf(op: AnyOperation): GraphQLFieldConfigArgumentMap {
    if (takesNoArgument(op)) return {};
    if (op.graphql?.flatArgs) {
      return Object.fromEntries(propertiesOf(op.input).map(([field, property]) => [
        field,
        { type: wrapped('input', op.input, field, property, `${op.graphqlName}(${field})`) as GraphQLInputType, description: property.description },
      ]));
    }
    const type = inputObject(op.input, op.graphqlName);
    return { [op.graphqlArgName]: { type: op.graphql?.nullableArg ? type : new GraphQLNonNull(type) } };
  }

  return { outputObject, argumentsOf };
}

export function buildGraphqlSchema(operations: readonly AnyOperation[], run?: OperationRunner): GraphQLSchema {
  const outputNames = new Set<string>();
  for (const op of operations) collectObjectNames(op.output, outputNames);
  const types = createTypeFactory(outputNames);
  const roots: Record<'query' | 'mutation', GraphQLFieldConfigMap<unknown, unknown>> = { query: {}, mutation: {} };
  for (const op of operations) {
    roots[op.kind][op.graphqlName] = {
      type: new GraphQLNonNull(types.outputObject(op.output, op.graphqlName)),
      description: op.description,
      args: types.argumentsOf(op),
      resolve: run ? (_source, args, context) => run(op, inputFromArgs(op, args), context) : undefined,
    };
  }
  const hasMutations = Object.keys(roots.mutation).length > 0;
  return new GraphQLSchema({
    query: new GraphQLObjectType({ name: 'Query', fields: roots.query }),
    mutation: hasMutations ? new GraphQLObjectType({ name: 'Mutation', fields: roots.mutation }) : undefined,
  });
}
