/**
 * Input and output checking against an operation's schemas. Unknown fields are dropped, not refused
 * (the released REST gateway discards unknown JSON fields, and the SDK sends a few extra ones); explicit
 * nulls count as absent, so GraphQL, REST and gRPC inputs reach the handler in one shape.
 */
import { TypeCompiler, type TypeCheck } from '@sinclair/typebox/compiler';
import { Value } from '@sinclair/typebox/value';
import { isListSchema, isMultiline, isObjectSchema, scalarKind, type TObject, type TSchema } from './schema.ts';
import { copyWithoutNulls, guardInput } from './input-guard.ts';
import { AppError } from '../kernel/errors.ts';
import { withInputLimits } from './input-limits.ts';

const compiled = new WeakMap<TSchema, TypeCheck<TSchema>>();

function checkerFor(schema: TSchema): TypeCheck<TSchema> {
  let check = compiled.get(schema);
  if (!check) {
    check = TypeCompiler.Compile(schema);
    compiled.set(schema, check);
  }
  return check;
}

/** Removes nulls and undefined values from objects (at any depth, without recursion): "absent" has one spelling. */
export function dropNulls(value: unknown): unknown {
  return copyWithoutNulls(value);
}

/**
 * Tab, LF and CR in a one-line field (schema.ts `multiline`). The value has passed the schema check, so
 * its shape is the schema's; Map values are free-form and left to input-guard.ts.
 */
function lineBreakIn(schema: TSchema, value: unknown, path: string): string | undefined {
  if (value === undefined) return undefined;
  const kind = scalarKind(schema);
  if (kind === 'String') return !isMultiline(schema) && /[\t\n\r]/.test(value as string) ? path : undefined;
  if (kind !== undefined) return undefined;
  if (isListSchema(schema)) {
    const items = (schema as unknown as { items: TSchema }).items;
    const list = value as unknown[];
    for (let i = 0; i < list.length; i += 1) {
      const found = lineBreakIn(items, list[i], `${path}[${i}]`);
      if (found) return found;
    }
    return undefined;
  }
  if (isObjectSchema(schema)) {
    const object = value as Record<string, unknown>;
    for (const [name, property] of Object.entries(schema.properties)) {
      const found = lineBreakIn(property as TSchema, object[name], path ? `${path}.${name}` : name);
      if (found) return found;
    }
  }
  return undefined;
}

function describePath(path: string): string {
  return path.replace(/^\//, '').replace(/\//g, '.') || 'input';
}

/** Parses raw input; throws AppError('invalid_argument') naming the first offending field. */
export function parseInput<T>(declared: TObject, raw: unknown): T {
  // Inputs are checked with the default length limits filled in (input-limits.ts); outputs never are.
  const schema = withInputLimits(declared);
  if (raw !== undefined && raw !== null && (typeof raw !== 'object' || Array.isArray(raw))) {
    throw AppError.invalid('request body must be a JSON object');
  }
  const value = Value.Clean(schema, guardInput(raw ?? {}));
  const check = checkerFor(schema);
  if (!check.Check(value)) {
    const first = check.Errors(value).First();
    const field = first ? describePath(first.path) : 'input';
    const message = first?.message ?? 'invalid value';
    throw AppError.invalid(`${field}: ${message.toLowerCase()}`);
  }
  const broken = lineBreakIn(schema, value, '');
  if (broken) throw AppError.invalid(`${broken}: must be one line (no tab, line feed or carriage return)`);
  return value as T;
}

/**
 * Output is cleaned to its schema so that nothing the schema does not name (a password hash, an internal
 * flag) can leave the server by accident, whatever the handler returned.
 */
export function shapeOutput<T>(schema: TObject, value: unknown): T {
  const cleaned = Value.Clean(schema, dropNulls(value));
  const check = checkerFor(schema);
  if (!check.Check(cleaned)) {
    const first = check.Errors(cleaned).First();
    throw new Error(`operation output does not match ${schema.$id}: ${first?.path} ${first?.message}`);
  }
  return cleaned as T;
}
