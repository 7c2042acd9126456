/**
 * Removal of the properties a schema does not name, as TypeBox's Value.Clean does, but prepared once per
 * schema: Value.Clean walks the schema on every call, copies its reference list at every named object and
 * compiles a RegExp for every free-form Map it meets, which made it the larger part of checking a token
 * validation's input and output. Output cleaning is what keeps anything the schema does not name (a
 * password hash, an internal flag) from leaving the server (validate.ts shapeOutput), so this does exactly
 * what Value.Clean does for the operation vocabulary (schema.ts: objects, Maps, lists, scalars); any other
 * kind is handed to Value.Clean itself. test/ops/clean.test.ts compares both on generated values.
 *
 * Like Value.Clean it mutates objects in place (callers pass their own copies) and maps lists to new lists.
 */
import { Kind, type TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';

type Cleaner = (value: unknown) => unknown;

const identity: Cleaner = (value) => value;
const cleaners = new WeakMap<TSchema, Cleaner>();

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

function objectCleaner(properties: Record<string, TSchema>): Cleaner {
  const byKey = new Map<string, Cleaner>(Object.keys(properties).map((key) => [key, cleanerFor(properties[key]!)]));
  return (value) => {
    if (!isObject(value) || Array.isArray(value)) return value;
    for (const key of Object.getOwnPropertyNames(value)) {
      const clean = byKey.get(key);
      if (clean) value[key] = clean(value[key]);
      else delete value[key];
    }
    return value;
  };
}

function recordCleaner(pattern: string, valueSchema: TSchema): Cleaner {
  const keyTest = new RegExp(pattern);
  const clean = cleanerFor(valueSchema);
  return (value) => {
    if (!isObject(value)) return value;
    for (const key of Object.getOwnPropertyNames(value)) {
      if (keyTest.test(key)) value[key] = clean(value[key]);
      else delete value[key];
    }
    return value;
  };
}

function compile(schema: TSchema): Cleaner {
  const additional = (schema as { additionalProperties?: unknown }).additionalProperties;
  // Schemas whose extra properties may stay when they match a schema: Value.Clean decides those.
  if (isObject(additional) && Kind in additional) return (value) => Value.Clean(schema, value);
  switch (schema[Kind]) {
    case 'Object':
      return objectCleaner((schema.properties ?? {}) as Record<string, TSchema>);
    case 'Record': {
      const [pattern, valueSchema] = Object.entries(schema.patternProperties as Record<string, TSchema>)[0]!;
      return recordCleaner(pattern, valueSchema);
    }
    case 'Array': {
      const clean = cleanerFor(schema.items as TSchema);
      return (value) => (Array.isArray(value) ? value.map((item) => clean(item)) : value);
    }
    case 'Intersect':
    case 'Union':
    case 'Tuple':
    case 'Ref':
    case 'This':
    case 'Import':
      return (value) => Value.Clean(schema, value);
    default:
      return identity;
  }
}

/** The cleaner of `schema`, prepared on first use and kept as long as the schema lives. */
export function cleanerFor(schema: TSchema): Cleaner {
  let cleaner = cleaners.get(schema);
  if (!cleaner) {
    // Placed before compiling so that a schema reaching itself (none today) would not recurse forever.
    cleaners.set(schema, (value) => cleaner!(value));
    cleaner = compile(schema);
    cleaners.set(schema, cleaner);
  }
  return cleaner;
}
