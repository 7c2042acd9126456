/**
 * The two custom scalars of the schema (docs/sdk-compatibility.md): Int64 for timestamps and `expires_in`, and Map for
 * free-form JSON objects (`claims`, `app_data`, the deprecated mutations' `params`).
 */
import { GraphQLError, GraphQLScalarType, Kind, valueFromASTUntyped, type ValueNode } from 'graphql';

const INTEGER_TEXT = /^-?\d+$/;

/** Integers travel as JS numbers, so only the safe range is exact; anything past it is refused, not rounded. */
function toInt64(value: unknown): number | undefined {
  let n: number | undefined;
  if (typeof value === 'number') n = value;
  else if (typeof value === 'bigint') n = Number(value);
  else if (typeof value === 'string' && INTEGER_TEXT.test(value.trim())) n = Number(value.trim());
  return n !== undefined && Number.isSafeInteger(n) ? n : undefined;
}

function describe(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}...` : value);
  if (value === null || typeof value !== 'object') return String(value);
  return Array.isArray(value) ? 'a list' : 'an object';
}

export const Int64Scalar = new GraphQLScalarType<number, number>({
  name: 'Int64',
  description: '64-bit integer (within +/-(2^53-1)); accepted as a JSON number or a numeric string, answered as a number.',
  serialize(value) {
    const n = toInt64(value);
    if (n === undefined) throw new GraphQLError(`Int64 cannot represent ${describe(value)}`);
    return n;
  },
  parseValue(value) {
    const n = toInt64(value);
    if (n === undefined) throw new GraphQLError(`Int64 cannot represent ${describe(value)}: expected an integer or a numeric string`);
    return n;
  },
  parseLiteral(ast) {
    if (ast.kind !== Kind.INT && ast.kind !== Kind.STRING) {
      throw new GraphQLError(`Int64 expects an integer or a numeric string, got ${ast.kind}`, { nodes: ast });
    }
    const n = toInt64(ast.value);
    if (n === undefined) throw new GraphQLError(`Int64 cannot represent ${describe(ast.value)}`, { nodes: ast });
    return n;
  },
});

type JsonObject = Record<string, unknown>;

function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export const MapScalar = new GraphQLScalarType<JsonObject, JsonObject>({
  name: 'Map',
  description: 'A JSON object with free-form keys and values.',
  serialize(value) {
    if (!isJsonObject(value)) throw new GraphQLError(`Map cannot represent ${describe(value)}`);
    return value;
  },
  parseValue(value) {
    if (!isJsonObject(value)) throw new GraphQLError(`Map expects a JSON object, got ${describe(value)}`);
    return value;
  },
  parseLiteral(ast: ValueNode, variables?: Record<string, unknown> | null) {
    if (ast.kind !== Kind.OBJECT) throw new GraphQLError(`Map expects an object literal, got ${ast.kind}`, { nodes: ast });
    // graphql-js builds literal objects without a prototype; handlers get ordinary JSON objects.
    return JSON.parse(JSON.stringify(valueFromASTUntyped(ast, variables ?? undefined))) as JsonObject;
  },
});
