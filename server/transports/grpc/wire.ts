/**
 * Converts between the objects @grpc/proto-loader hands over (defaults: false, oneofs: true, longs as
 * numbers) and the plain JSON shapes operations take and return, guided by the operation's schema:
 * - `Map` fields travel as google.protobuf.Struct and are turned into plain objects both ways;
 * - every scalar is proto3 `optional` (see generate-proto.ts), so presence survives: a required scalar that
 *   did not arrive stays absent and the pipeline refuses it as REST and GraphQL do;
 * - repeated fields cannot carry presence: a required list that did not arrive is [], an optional one stays
 *   absent (an update that omits a list means "leave it", never "clear it");
 * - anything the schema does not name (proto-loader's synthetic `_field` oneof keys) is dropped.
 */
import { isListSchema, isObjectSchema, isRequired, scalarKind } from '../../ops/schema.ts';
import type { TObject, TSchema } from '../../ops/schema.ts';
import { AppError, boundedMessage } from '../../kernel/errors.ts';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type WireValue = Record<string, unknown>;


function jsonToValue(value: unknown): WireValue {
  if (value !== null && typeof value === 'object' && typeof (value as { toJSON?: unknown }).toJSON === 'function') {
    value = (value as { toJSON(): unknown }).toJSON();
  }
  if (value === null || value === undefined) return { nullValue: 'NULL_VALUE' };
  if (typeof value === 'string') return { stringValue: value };
  if (typeof value === 'boolean') return { boolValue: value };
  if (typeof value === 'number') {
    // JSON has no NaN or Infinity; JSON.stringify writes them as null, and so does this.
    return Number.isFinite(value) ? { numberValue: value } : { nullValue: 'NULL_VALUE' };
  }
  if (Array.isArray(value)) return { listValue: { values: value.map(jsonToValue) } };
  if (typeof value === 'object') return { structValue: jsonToStruct(value as Record<string, unknown>) };
  throw new TypeError(`a ${typeof value} cannot be carried in a google.protobuf.Value`);
}

/** Plain object -> google.protobuf.Struct in protobufjs object form. */
export function jsonToStruct(object: Record<string, unknown>): { fields: Record<string, WireValue> } {
  const fields: Record<string, WireValue> = {};
  for (const [key, value] of Object.entries(object)) {
    if (value !== undefined) fields[key] = jsonToValue(value);
  }
  return { fields };
}

/**
 * Struct and ListValue nest without end in the proto; protobufjs stops decoding at 100 messages
 * (protoc's default recursion limit), which is 33 Struct levels. The conversion bounds the nesting itself
 * too, below the stack, so a Struct from any decoder answers INVALID_ARGUMENT rather than INTERNAL.
 */
export const MAX_STRUCT_DEPTH = 64;

function valueToJson(value: unknown, depth: number): Json {
  if (value === null || typeof value !== 'object') return null;
  const v = value as WireValue;
  if (v.stringValue !== undefined) return String(v.stringValue);
  if (v.boolValue !== undefined) return Boolean(v.boolValue);
  if (v.numberValue !== undefined) return Number(v.numberValue);
  if (v.structValue !== undefined) return structToJson(v.structValue, depth + 1);
  if (v.listValue !== undefined) {
    if (depth + 1 > MAX_STRUCT_DEPTH) throw AppError.invalid(`a google.protobuf.Value nests deeper than ${MAX_STRUCT_DEPTH} levels`);
    const values = (v.listValue as { values?: unknown[] }).values;
    return Array.isArray(values) ? values.map((item) => valueToJson(item, depth + 1)) : [];
  }
  return null;
}

/** google.protobuf.Struct in protobufjs object form -> plain object. */
export function structToJson(struct: unknown, depth = 1): { [key: string]: Json } {
  if (depth > MAX_STRUCT_DEPTH) throw AppError.invalid(`a google.protobuf.Struct nests deeper than ${MAX_STRUCT_DEPTH} levels`);
  const out: { [key: string]: Json } = {};
  const fields = struct !== null && typeof struct === 'object' ? (struct as { fields?: unknown }).fields : undefined;
  if (fields === null || typeof fields !== 'object') return out;
  for (const [key, value] of Object.entries(fields as Record<string, unknown>)) {
    // defineProperty: a `__proto__` key stays a key (the input check refuses it by name).
    Object.defineProperty(out, key, { value: valueToJson(value, depth), enumerable: true, writable: true, configurable: true });
  }
  return out;
}

/**
 * The status message travels percent-encoded in the `grpc-message` trailer (gRPC over HTTP/2, "Responses"),
 * where a large one exceeded the peer's header-list limit and the reply never arrived; messages are built
 * short (problem lists capped), and this bound (UTF-16 units; at most 3 bytes each encoded, 9 escaped)
 * guarantees it whatever the source.
 */
export function statusDetails(message: string): string {
  return boundedMessage(message);
}

/** Marks a request protobufjs could not decode; fromWire refuses it as the caller's mistake. */
const UNDECODABLE = Symbol('undecodable request');

/**
 * grpc-js answers INTERNAL when a request does not decode (malformed bytes, nesting past protobufjs's
 * limit), though the fault is the caller's. Each method's decoder here hands a marker to the handler
 * instead, and fromWire refuses it with INVALID_ARGUMENT (gRPC status codes: INVALID_ARGUMENT "indicates
 * arguments that are problematic regardless of the state of the system").
 */
export function refusingUndecodable<T extends Record<string, unknown>>(service: T): T {
  const wrapped: Record<string, unknown> = {};
  for (const [name, method] of Object.entries(service)) {
    const { requestDeserialize } = method as { requestDeserialize: (bytes: Buffer) => unknown };
    wrapped[name] = {
      ...(method as object),
      requestDeserialize: (bytes: Buffer) => {
        try {
          return requestDeserialize(bytes);
        } catch (err) {
          return { [UNDECODABLE]: err instanceof Error ? err.message : String(err) };
        }
      },
    };
  }
  return wrapped as T;
}

function asRecord(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

function itemFromWire(schema: TSchema, value: unknown): unknown {
  const kind = scalarKind(schema);
  if (kind === 'Map') return structToJson(value);
  if (kind) return value;
  if (isObjectSchema(schema)) return fromWire(schema, value);
  return value;
}

/** A decoded protobuf message -> the plain JSON object the schema describes. */
export function fromWire(schema: TObject, message: unknown): Record<string, unknown> {
  const wire = asRecord(message);
  const undecodable = wire[UNDECODABLE as unknown as string];
  if (undecodable !== undefined) {
    throw AppError.invalid(`the request message could not be decoded as ${schema.$id ?? 'the method\'s message'}: ${String(undecodable).slice(0, 200)}`);
  }
  const out: Record<string, unknown> = {};
  for (const [field, prop] of Object.entries(schema.properties)) {
    const value = wire[field];
    const required = isRequired(schema, field);
    if (isListSchema(prop)) {
      const items = (prop as unknown as { items: TSchema }).items;
      if (Array.isArray(value) && (value.length > 0 || required)) out[field] = value.map((item) => itemFromWire(items, item));
      else if (required) out[field] = [];
    } else if (value !== undefined && value !== null) {
      out[field] = itemFromWire(prop, value);
    }
  }
  return out;
}

function itemToWire(schema: TSchema, value: unknown): unknown {
  const kind = scalarKind(schema);
  if (kind === 'Map') return jsonToStruct(asRecord(value));
  if (kind) return value;
  if (isObjectSchema(schema)) return toWire(schema, value);
  return value;
}

/** A plain JSON object -> the object form protobufjs encodes (Map fields as Struct). */
export function toWire(schema: TObject, object: unknown): Record<string, unknown> {
  const plain = asRecord(object);
  const out: Record<string, unknown> = {};
  for (const [field, prop] of Object.entries(schema.properties)) {
    const value = plain[field];
    if (value === undefined || value === null) continue;
    if (isListSchema(prop)) {
      const items = (prop as unknown as { items: TSchema }).items;
      out[field] = Array.isArray(value) ? value.map((item) => itemToWire(items, item)) : value;
    } else {
      out[field] = itemToWire(prop, value);
    }
  }
  return out;
}
