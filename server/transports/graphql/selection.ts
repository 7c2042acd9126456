/**
 * Client-side helpers for tests (the parity test calls every operation over GraphQL): a selection set
 * asking for every field of a TypeBox output schema, and a whole request document for one operation.
 */
import type { GraphQLSchema } from 'graphql';
import type { AnyOperation } from '../../ops/define.ts';
import { isListSchema, isObjectSchema, scalarKind, type TObject, type TSchema } from '../../ops/schema.ts';

function subSelection(schema: TSchema): string {
  if (scalarKind(schema) !== undefined) return '';
  if (isListSchema(schema)) return subSelection(schema.items as TSchema);
  if (isObjectSchema(schema)) return ` ${selectionFor(schema)}`;
  throw new Error('selectionFor: unsupported schema');
}

/** `{ a b c { d } }` naming every field of the output schema, nested objects and lists of objects included. */
export function selectionFor(schema: TObject): string {
  const fields = Object.entries(schema.properties ?? {}).map(([name, property]) => `${name}${subSelection(property as TSchema)}`);
  return `{ ${fields.join(' ')} }`;
}

/**
 * `{query, variables}` running one operation with the given input, with argument types read from the
 * generated schema (so `Input` suffixes and nullability follow the server's own rules).
 */
export function graphqlRequestFor(
  schema: GraphQLSchema, op: AnyOperation, input: Record<string, unknown> = {},
): { query: string; variables: Record<string, unknown> } {
  const root = op.kind === 'query' ? schema.getQueryType() : schema.getMutationType();
  const field = root?.getFields()[op.graphqlName];
  if (!field) throw new Error(`graphqlRequestFor: the schema has no ${op.kind} field ${op.graphqlName}`);
  const selection = selectionFor(op.output);
  if (field.args.length === 0) return { query: `${op.kind} { ${op.graphqlName} ${selection} }`, variables: {} };
  const definitions = field.args.map((arg) => `$${arg.name}: ${String(arg.type)}`).join(', ');
  const passed = field.args.map((arg) => `${arg.name}: $${arg.name}`).join(', ');
  const variables = op.graphql?.flatArgs ? { ...input } : { [op.graphqlArgName]: input };
  return { query: `${op.kind} Call(${definitions}) { ${op.graphqlName}(${passed}) ${selection} }`, variables };
}
