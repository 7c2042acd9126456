/**
 * TypeScript declarations of every operation's input and output, printed from the operations' TypeBox
 * schemas (server/ops/schema.ts: named objects, strings, booleans, 32/64-bit integers, lists, Map). Names
 * follow the GraphQL schema (server/transports/graphql/schema.ts): an object keeps its `$id`, and an `$id`
 * used both as input and as output gets the `Input` suffix on its input side, so a type in the console reads
 * as the SDL in graphql/portcullis.graphql does.
 *
 * Optional output fields are `?: T | null` (GraphQL answers null for an absent nullable field); optional
 * input fields are `?: T` (the server's input validation refuses null where it expects a value). Tokens the
 * browser apps never read are left out of the answers (withheld-fields.ts).
 */
import type { AnyOperation } from '../../server/ops/define.ts';
import { isListSchema, isObjectSchema, isRequired, objectName, scalarKind, type ScalarKind, type TObject, type TSchema } from '../../server/ops/schema.ts';
import { keptOutputFields } from './withheld-fields.ts';

type Direction = 'input' | 'output';

const SCALAR_TYPES: Record<ScalarKind, string> = {
  String: 'string',
  Boolean: 'boolean',
  Int: 'number',
  // Int64 travels as a JSON number within +/-(2^53-1) (server/transports/graphql/scalars.ts).
  Int64: 'number',
  Map: 'Record<string, unknown>',
};

function propertiesOf(schema: TObject): [string, TSchema][] {
  return Object.entries(schema.properties ?? {}) as [string, TSchema][];
}

function collectOutputNames(schema: TSchema, into: Set<string>): void {
  if (scalarKind(schema) !== undefined) return;
  if (isListSchema(schema)) return collectOutputNames(schema.items as TSchema, into);
  if (isObjectSchema(schema)) {
    into.add(objectName(schema));
    for (const [, property] of propertiesOf(schema)) collectOutputNames(property, into);
  }
}

/** A JSDoc block, or nothing; `*\/` inside a description would end the comment early. */
function docComment(text: string | undefined, indent: string): string {
  if (!text) return '';
  const lines = text.replace(/\*\//g, '*\\/').split('\n');
  if (lines.length === 1) return `${indent}/** ${lines[0]} */\n`;
  return `${indent}/**\n${lines.map((line) => `${indent} * ${line}`.trimEnd()).join('\n')}\n${indent} */\n`;
}

function propertyKey(name: string): string {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) ? name : JSON.stringify(name);
}

export interface TypeDeclarations {
  /** The declarations, one exported interface per named object, in first-use order. */
  readonly text: string;
  /** The TypeScript name of an operation's input and output. */
  readonly names: ReadonlyMap<string, { input: string; output: string }>;
}

export function typeDeclarations(operations: readonly AnyOperation[]): TypeDeclarations {
  const outputNames = new Set<string>();
  for (const op of operations) collectOutputNames(op.output, outputNames);
  const declared = new Map<string, { schema: TObject; text: string }>();
  const order: string[] = [];

  function nameOf(direction: Direction, schema: TObject): string {
    const id = objectName(schema);
    return direction === 'input' && outputNames.has(id) ? `${id}Input` : id;
  }

  function typeOf(direction: Direction, schema: TSchema, where: string): string {
    const scalar = scalarKind(schema);
    if (scalar !== undefined) return SCALAR_TYPES[scalar];
    if (isListSchema(schema)) return `${typeOf(direction, schema.items as TSchema, `${where}[]`)}[]`;
    if (isObjectSchema(schema)) return declare(direction, schema, where);
    throw new Error(`unsupported schema at ${where}: only s.* schemas are printed`);
  }

  function declare(direction: Direction, schema: TObject, where: string): string {
    const name = nameOf(direction, schema);
    const key = `${direction}:${name}`;
    const existing = declared.get(key);
    if (existing) {
      if (existing.schema !== schema && JSON.stringify(existing.schema) !== JSON.stringify(schema)) {
        throw new Error(`type ${name} has two different definitions (second one at ${where})`);
      }
      return name;
    }
    const clash = [...declared.keys()].find((other) => other.endsWith(`:${name}`));
    if (clash) throw new Error(`type name ${name} is used by an input and an output of different shapes (at ${where})`);
    const placeholder = { schema, text: '' };
    declared.set(key, placeholder);
    order.push(key);
    const properties = direction === 'output' ? keptOutputFields(schema, propertiesOf(schema)) : propertiesOf(schema);
    const header = `${docComment(schema.description, '')}export interface ${name} `;
    if (properties.length === 0) {
      // An operation without input (the `Empty` object): the call passes `{}`.
      placeholder.text = `${docComment(schema.description, '')}export type ${name} = Record<string, never>;\n`;
      return name;
    }
    const lines = properties.map(([field, property]) => {
      const type = typeOf(direction, property, `${name}.${field}`);
      const required = isRequired(schema, field);
      const optional = required ? '' : '?';
      const nullable = !required && direction === 'output' ? ' | null' : '';
      return `${docComment(property.description, '  ')}  ${propertyKey(field)}${optional}: ${type}${nullable};\n`;
    });
    placeholder.text = `${header}{\n${lines.join('')}}\n`;
    return name;
  }

  const names = new Map<string, { input: string; output: string }>();
  for (const op of operations) {
    names.set(op.name, { input: declare('input', op.input, `${op.name} input`), output: declare('output', op.output, `${op.name} output`) });
  }
  return { text: order.map((key) => declared.get(key)!.text).join('\n'), names };
}
