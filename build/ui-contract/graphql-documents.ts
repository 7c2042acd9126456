/**
 * One GraphQL document per operation, built against the schema the server serves (buildGraphqlSchema of the
 * same registry, so argument types, `Input` suffixes and nullability are the server's own), selecting every
 * field of the output, nested objects included, except the tokens the browser apps never read
 * (withheld-fields.ts). test/ops/ui-contract-drift.test.ts validates each one against graphql/portcullis.graphql.
 */
import type { GraphQLSchema } from 'graphql';
import { pascalCase, type AnyOperation } from '../../server/ops/define.ts';
import { isListSchema, isObjectSchema, scalarKind, type TObject, type TSchema } from '../../server/ops/schema.ts';
import { keptOutputFields } from './withheld-fields.ts';

function subSelection(schema: TSchema): string {
  if (scalarKind(schema) !== undefined) return '';
  if (isListSchema(schema)) return subSelection(schema.items as TSchema);
  if (isObjectSchema(schema)) return ` ${selectionOf(schema)}`;
  throw new Error('unsupported output schema: only s.* schemas are selected');
}

/** `{ a b c { d } }`: the kept fields of an output object. */
function selectionOf(schema: TObject): string {
  const fields = keptOutputFields(schema, Object.entries(schema.properties ?? {}) as [string, TSchema][]);
  return `{ ${fields.map(([name, property]) => `${name}${subSelection(property)}`).join(' ')} }`;
}

/** How the call of one operation is sent: its document, the root field answering it and its arguments. */
export interface OperationDocument {
  readonly document: string;
  readonly field: string;
  /** The one argument that carries the whole input (`params` unless the operation renames it). */
  readonly wrap?: string;
  /** Each input field is an argument of its own (`flatArgs`). Neither this nor `wrap`: no argument. */
  readonly flat?: true;
}

export function operationDocument(schema: GraphQLSchema, op: AnyOperation): OperationDocument {
  const root = op.kind === 'query' ? schema.getQueryType() : schema.getMutationType();
  const field = root?.getFields()[op.graphqlName];
  if (!field) throw new Error(`the schema has no ${op.kind} field ${op.graphqlName}`);
  const selection = selectionOf(op.output);
  const name = pascalCase(op.name);
  if (field.args.length === 0) {
    return { document: `${op.kind} ${name} { ${op.graphqlName} ${selection} }`, field: op.graphqlName };
  }
  const definitions = field.args.map((arg) => `$${arg.name}: ${String(arg.type)}`).join(', ');
  const passed = field.args.map((arg) => `${arg.name}: $${arg.name}`).join(', ');
  return {
    document: `${op.kind} ${name}(${definitions}) { ${op.graphqlName}(${passed}) ${selection} }`,
    field: op.graphqlName,
    ...(op.graphql?.flatArgs ? { flat: true as const } : { wrap: op.graphqlArgName }),
  };
}
