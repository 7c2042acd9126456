/**
 * Input and output checking against an operation's schemas. Unknown fields are dropped, not refused
 * (the released REST gateway discards unknown JSON fields, and the SDK sends a few extra ones); explicit
 * nulls count as absent, so GraphQL, REST and gRPC inputs reach the handler in one shape.
 */
import { TypeCompiler, type TypeCheck } from '@sinclair/typebox/compiler';
import { ValueErrorType } from '@sinclair/typebox/errors';
import type { TObject, TSchema } from './schema.ts';
import { copyWithoutNulls, guardInput } from './input-guard.ts';
import { AppError } from '../kernel/errors.ts';
import { ONE_LINE_PATTERN, withInputLimits } from './input-limits.ts';
import { cleanerFor } from './clean.ts';

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
  const value = cleanerFor(schema)(guardInput(raw ?? {}));
  const check = checkerFor(schema);
  if (!check.Check(value)) {
    const first = check.Errors(value).First();
    const field = first ? describePath(first.path) : 'input';
    if (first?.type === ValueErrorType.StringPattern && (first.schema as { pattern?: string }).pattern === ONE_LINE_PATTERN) {
      throw AppError.invalid(`${field}: must be one line (no tab, line feed or carriage return)`);
    }
    const message = first?.message ?? 'invalid value';
    throw AppError.invalid(`${field}: ${message.toLowerCase()}`);
  }
  return value as T;
}

/**
 * Output is cleaned to its schema so that nothing the schema does not name (a password hash, an internal
 * flag) can leave the server by accident, whatever the handler returned.
 */
export function shapeOutput<T>(schema: TObject, value: unknown): T {
  const cleaned = cleanerFor(schema)(dropNulls(value));
  const check = checkerFor(schema);
  if (!check.Check(cleaned)) {
    const first = check.Errors(cleaned).First();
    throw new Error(`operation output does not match ${schema.$id}: ${first?.path} ${first?.message}`);
  }
  return cleaned as T;
}
