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

function valueToJson(value: unknown): Json {
  if (value === null || typeof value !== 'object') return null;
  const v = value as WireValue;
  if (v.stringValue !== undefined) return String(v.stringValue);
  if (v.boolValue !== undefined) return Boolean(v.boolValue);
  if (v.numberValue !== undefined) return Number(v.numberValue);
  if (v.structValue !== undefined) return structToJson(v.structValue);
  if (v.listValue !== undefined) {
    const values = (v.listValue as { values?: unknown[] }).values;
    return Array.isArray(values) ? values.map(valueToJson) : [];
  }
  return null;
}

/** google.protobuf.Struct in protobufjs object form -> plain object. */
export function structToJson(struct: unknown): { [key: string]: Json } {
  const out: { [key: string]: Json } = {};
  const fields = struct !== null && typeof struct === 'object' ? (struct as { fields?: unknown }).fields : undefined;
  if (fields === null || typeof fields !== 'object') return out;
  for (const [key, value] of Object.entries(fields as Record<string, unknown>)) out[key] = valueToJson(value);
  return out;
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
