/**
 * The one schema vocabulary of operations (TypeBox, so it is JSON Schema underneath). It is restricted to
 * what maps cleanly onto GraphQL and protobuf: named objects, strings, booleans, 32-bit and 64-bit integers,
 * lists, and a JSON object scalar ("Map" in docs/api-overview.md#resources-and-fields). The GraphQL and proto generators read the
 * `x-portcullis` annotation and `$id` names written here; nothing else describes operation shapes.
 */
import { Type, type TSchema, type TObject, type TProperties, type Static } from '@sinclair/typebox';

export type ScalarKind = 'String' | 'Boolean' | 'Int' | 'Int64' | 'Map';
export type { Static, TSchema, TObject, TProperties };

const ANNOTATION = 'x-portcullis';

/**
 * Input text is one line unless a field says otherwise: tab, LF and CR are refused in it (they would split
 * an email header, a log line or a cookie), while other control characters are refused everywhere
 * (input-guard.ts). Free-form Map values may hold multi-line text.
 */
const MULTILINE = 'x-portcullis-multiline';

export const s = {
  string: (opts: { minLength?: number; maxLength?: number; description?: string; multiline?: boolean } = {}) => {
    const { multiline, ...rest } = opts;
    return Type.String({ ...rest, [ANNOTATION]: 'String', ...(multiline ? { [MULTILINE]: true } : {}) });
  },
  boolean: (opts: { description?: string } = {}) => Type.Boolean({ ...opts, [ANNOTATION]: 'Boolean' }),
  int: (opts: { minimum?: number; maximum?: number; description?: string } = {}) =>
    Type.Integer({ minimum: -2147483648, maximum: 2147483647, ...opts, [ANNOTATION]: 'Int' }),
  /** 64-bit integer: timestamps and `expires_in` (GraphQL scalar Int64, proto int64). */
  int64: (opts: { description?: string } = {}) => Type.Integer({ ...opts, [ANNOTATION]: 'Int64' }),
  /** Free-form JSON object (GraphQL scalar Map, proto google.protobuf.Struct). */
  map: (opts: { description?: string } = {}) =>
    Type.Record(Type.String(), Type.Unknown(), { ...opts, [ANNOTATION]: 'Map' }),
  list: <T extends TSchema>(item: T, opts: { minItems?: number; maxItems?: number } = {}) => Type.Array(item, opts),
  optional: <T extends TSchema>(schema: T) => Type.Optional(schema),
  /** A named object; the name is the GraphQL type name and the protobuf message name. */
  object: <P extends TProperties>(name: string, props: P, opts: { description?: string } = {}) =>
    Type.Object(props, { ...opts, $id: name }),
};

/** Reads the scalar annotation of a schema, or undefined for objects and lists. */
export function scalarKind(schema: TSchema): ScalarKind | undefined {
  return (schema as Record<string, unknown>)[ANNOTATION] as ScalarKind | undefined;
}

/** True for a string field declared with `multiline: true`. */
export function isMultiline(schema: TSchema): boolean {
  return (schema as Record<string, unknown>)[MULTILINE] === true;
}

export function isObjectSchema(schema: TSchema): schema is TObject {
  return schema.type === 'object' && scalarKind(schema) === undefined;
}

export function isListSchema(schema: TSchema): boolean {
  return schema.type === 'array';
}

export function objectName(schema: TObject): string {
  const name = schema.$id;
  if (!name) throw new Error('operation object schemas must be named with s.object(name, ...)');
  return name;
}

export function isRequired(parent: TObject, field: string): boolean {
  return (parent.required ?? []).includes(field);
}

/** The empty input of operations that take no argument. */
export const NoInput = s.object('Empty', {});
/** The `{message}` answer most mutations return (the Response of docs/api-overview.md#resources-and-fields). */
export const MessageResponse = s.object('Response', { message: s.string() });
