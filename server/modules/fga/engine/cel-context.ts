/**
 * Condition parameter types (OpenFGA Docs, "Conditions": bool, string, int, uint, double, duration,
 * timestamp, ipaddress, list<T>, map<T>, any) as CEL types, and the conversion of a JSON context value to
 * its declared type, as OpenFGA casts the context before evaluating (CastContextToTypedParameters):
 *
 * - int and uint take an integral number or a string holding one; double any number or numeric string;
 * - timestamp takes an RFC 3339 string (RFC 3339 §5.6), duration a Go duration string ("1h30m");
 * - ipaddress takes an IPv4 or IPv6 address string;
 * - list<T> and map<T> convert every element (map keys are strings); any passes the JSON value as is
 *   (a JSON number is a CEL double).
 *
 * A value that does not convert is a TypeError; the engine reports it as OpenFGA does (validation error
 * 2000) and the tuple validation refuses the write (condition-context.ts).
 */
import { celUint, CelScalar, listType, mapType, objectType, type CelInput, type CelType } from '@bufbuild/cel';
import { create } from '@bufbuild/protobuf';
import { reflect } from '@bufbuild/protobuf/reflect';
import { DurationSchema, TimestampSchema } from '@bufbuild/protobuf/wkt';
import { IPADDRESS, ipAddress } from './cel-ipaddress.ts';

export interface ParameterType {
  type_name?: string;
  generic_types?: ParameterType[];
}

const TIMESTAMP = objectType(TimestampSchema);
const DURATION = objectType(DurationSchema);
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const UINT64_MAX = 2n ** 64n - 1n;

/** The CEL type of a declared parameter; throws a TypeError for a type name OpenFGA does not define. */
export function celTypeOf(type: ParameterType): CelType {
  const generic = type.generic_types?.[0];
  switch (type.type_name) {
    case 'TYPE_NAME_ANY':
      return CelScalar.DYN;
    case 'TYPE_NAME_BOOL':
      return CelScalar.BOOL;
    case 'TYPE_NAME_STRING':
      return CelScalar.STRING;
    case 'TYPE_NAME_INT':
      return CelScalar.INT;
    case 'TYPE_NAME_UINT':
      return CelScalar.UINT;
    case 'TYPE_NAME_DOUBLE':
      return CelScalar.DOUBLE;
    case 'TYPE_NAME_TIMESTAMP':
      return TIMESTAMP;
    case 'TYPE_NAME_DURATION':
      return DURATION;
    case 'TYPE_NAME_IPADDRESS':
      return IPADDRESS;
    case 'TYPE_NAME_LIST':
      return listType(generic ? celTypeOf(generic) : CelScalar.DYN);
    case 'TYPE_NAME_MAP':
      return mapType(CelScalar.STRING, generic ? celTypeOf(generic) : CelScalar.DYN);
    default:
      throw new TypeError(`unsupported parameter type ${String(type.type_name)}`);
  }
}

function integer(value: unknown, min: bigint, max: bigint, what: string): bigint {
  if ((typeof value === 'number' && Number.isInteger(value)) || (typeof value === 'string' && /^[-+]?\d+$/.test(value))) {
    const n = BigInt(value);
    if (n >= min && n <= max) return n;
  }
  throw new TypeError(`'${String(value)}' is not ${what}`);
}

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(?:[Zz]|([+-])(\d{2}):(\d{2}))$/;

/** An RFC 3339 date-time (RFC 3339 §5.6) as a google.protobuf.Timestamp, to the nanosecond. */
function timestamp(text: string) {
  const match = RFC3339.exec(text);
  if (match) {
    const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number) as [number, number, number, number, number, number];
    // Date.UTC reads years 0-99 as 1900-1999; setUTCFullYear does not.
    const date = new Date(0);
    date.setUTCFullYear(year, month - 1, day);
    date.setUTCHours(hour, minute, second, 0);
    const ms = date.getTime();
    const offsetMinutes = match[8] ? (match[8] === '-' ? -1 : 1) * (Number(match[9]) * 60 + Number(match[10])) : 0;
    const valid = date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day && hour < 24 && minute < 60 && second < 60;
    if (valid && year >= 1 && Number(match[9] ?? 0) < 24 && Number(match[10] ?? 0) < 60) {
      const nanos = Number((match[7] ?? '').padEnd(9, '0'));
      return reflect(TimestampSchema, create(TimestampSchema, { seconds: BigInt(ms / 1000 - offsetMinutes * 60), nanos }));
    }
  }
  throw new TypeError(`'${text}' is not an RFC 3339 timestamp`);
}

const GO_DURATION = /^[-+]?(?:(?:\d+(?:\.\d*)?|\.\d+)(?:ns|us|µs|μs|ms|s|m|h))+$/;
const NANOS_PER_UNIT: Record<string, bigint> = { ns: 1n, us: 1_000n, µs: 1_000n, μs: 1_000n, ms: 1_000_000n, s: 1_000_000_000n, m: 60_000_000_000n, h: 3_600_000_000_000n };

/** A Go duration string ("1h30m", "-1.5s", "0"), as OpenFGA reads it (Go's time.ParseDuration). */
function duration(text: string) {
  if (text !== '0' && text !== '+0' && text !== '-0' && !GO_DURATION.test(text)) throw new TypeError(`'${text}' is not a duration`);
  let nanos = 0n;
  for (const [, whole, fraction = '', unit] of text.matchAll(/(\d*)(?:\.(\d*))?(ns|us|µs|μs|ms|s|m|h)/g)) {
    const perUnit = NANOS_PER_UNIT[unit!]!;
    nanos += BigInt(whole || '0') * perUnit + (fraction ? (BigInt(fraction) * perUnit) / 10n ** BigInt(fraction.length) : 0n);
  }
  if (text.startsWith('-')) nanos = -nanos;
  if (nanos > INT64_MAX || nanos < INT64_MIN) throw new TypeError(`'${text}' is out of the duration range`);
  return reflect(DurationSchema, create(DurationSchema, { seconds: nanos / 1_000_000_000n, nanos: Number(nanos % 1_000_000_000n) }));
}

/** Converts a JSON context value to the CEL input of the parameter's type; throws a TypeError when it does not fit. */
export function toCelInput(value: unknown, type: ParameterType): CelInput {
  const generic = type.generic_types?.[0];
  switch (type.type_name) {
    case 'TYPE_NAME_ANY':
      return value as CelInput;
    case 'TYPE_NAME_BOOL':
      if (typeof value !== 'boolean') throw new TypeError('not a bool');
      return value;
    case 'TYPE_NAME_STRING':
      if (typeof value !== 'string') throw new TypeError('not a string');
      return value;
    case 'TYPE_NAME_INT':
      return integer(value, INT64_MIN, INT64_MAX, 'an integer');
    case 'TYPE_NAME_UINT':
      return celUint(integer(value, 0n, UINT64_MAX, 'an unsigned integer'));
    case 'TYPE_NAME_DOUBLE': {
      const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : Number.NaN;
      if (!Number.isFinite(n)) throw new TypeError('not a number');
      return n;
    }
    case 'TYPE_NAME_TIMESTAMP':
      if (typeof value !== 'string') throw new TypeError('not a timestamp');
      return timestamp(value);
    case 'TYPE_NAME_DURATION':
      if (typeof value !== 'string') throw new TypeError('not a duration');
      return duration(value);
    case 'TYPE_NAME_IPADDRESS':
      if (typeof value !== 'string') throw new TypeError('not an IP address');
      return ipAddress(value);
    case 'TYPE_NAME_LIST':
      if (!Array.isArray(value)) throw new TypeError('not a list');
      return generic ? value.map((item) => toCelInput(item, generic)) : (value as CelInput[]);
    case 'TYPE_NAME_MAP': {
      if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new TypeError('not a map');
      const entries = Object.entries(value);
      return new Map(generic ? entries.map(([k, v]) => [k, toCelInput(v, generic)]) : entries) as CelInput;
    }
    default:
      throw new TypeError(`unsupported parameter type ${String(type.type_name)}`);
  }
}
