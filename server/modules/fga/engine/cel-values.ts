/**
 * CEL values beyond JSON for OpenFGA condition parameters (timestamp, duration, ipaddress) and the
 * conversion of a context value to its declared parameter type (OpenFGA CastContextToTypedParameters):
 * int and uint become bigint, double a number, timestamp/duration/ipaddress their classes here. A value
 * that does not convert is an error the engine reports as OpenFGA does (validation error 2000).
 */
import { isIP } from 'node:net';

export class Timestamp {
  readonly ms: number;
  constructor(ms: number) {
    this.ms = ms;
  }
  static parse(text: string): Timestamp {
    const ms = /^\d{4}-\d{2}-\d{2}T/.test(text) ? Date.parse(text) : Number.NaN;
    if (Number.isNaN(ms)) throw new TypeError(`'${text}' is not an RFC 3339 timestamp`);
    return new Timestamp(ms);
  }
}

const DURATION_UNITS: Record<string, number> = { ns: 1e-6, us: 1e-3, µs: 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

export class Duration {
  readonly ms: number;
  constructor(ms: number) {
    this.ms = ms;
  }
  static parse(text: string): Duration {
    const match = /^([-+]?)((?:\d+(?:\.\d*)?|\.\d+)(?:ns|us|µs|ms|s|m|h))+$/.exec(text);
    if (!match && text !== '0') throw new TypeError(`'${text}' is not a duration`);
    let ms = 0;
    for (const part of text.matchAll(/(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|ms|s|m|h)/g)) ms += Number(part[1]) * DURATION_UNITS[part[2]!]!;
    return new Duration(text.startsWith('-') ? -ms : ms);
  }
}

export class IpAddress {
  readonly bytes: number[];
  readonly text: string;
  constructor(text: string) {
    const bytes = ipBytes(text);
    if (!bytes) throw new TypeError(`'${text}' is not an IP address`);
    this.text = text;
    this.bytes = bytes;
  }
  inCidr(cidr: string): boolean {
    const [address, prefixText] = cidr.split('/');
    const network = address ? ipBytes(address) : undefined;
    const prefix = Number(prefixText);
    if (!network || !Number.isInteger(prefix) || prefix < 0 || prefix > network.length * 8) {
      throw new TypeError(`'${cidr}' is not a CIDR block`);
    }
    if (network.length !== this.bytes.length) return false;
    for (let bit = 0; bit < prefix; bit++) {
      const mask = 0x80 >> (bit % 8);
      if ((network[bit >> 3]! & mask) !== (this.bytes[bit >> 3]! & mask)) return false;
    }
    return true;
  }
}

function ipBytes(text: string): number[] | undefined {
  const kind = isIP(text);
  if (kind === 4) return text.split('.').map(Number);
  if (kind !== 6) return undefined;
  const [head, tail] = text.includes('::') ? text.split('::') : [text, undefined];
  const groups = (part: string | undefined) => (part ? part.split(':') : []);
  let left = groups(head);
  let right = tail === undefined ? [] : groups(tail);
  const v4 = (list: string[]) => {
    const last = list.at(-1);
    if (!last?.includes('.')) return list;
    const [a, b, c, d] = last.split('.').map(Number) as [number, number, number, number];
    return [...list.slice(0, -1), ((a << 8) | b).toString(16), ((c << 8) | d).toString(16)];
  };
  left = v4(left);
  right = v4(right);
  const fill = tail === undefined ? [] : Array<string>(8 - left.length - right.length).fill('0');
  return [...left, ...fill, ...right].flatMap((group) => {
    const value = Number.parseInt(group, 16);
    return [value >> 8, value & 0xff];
  });
}

interface ParameterType {
  type_name?: string;
  generic_types?: ParameterType[];
}

/** Converts a JSON context value to the parameter's CEL type; throws TypeError when it does not fit. */
export function toCelValue(value: unknown, type: ParameterType): unknown {
  const generic = type.generic_types?.[0];
  const integer = (v: unknown) => {
    if ((typeof v === 'number' && Number.isInteger(v)) || (typeof v === 'string' && /^[-+]?\d+$/.test(v))) return BigInt(v);
    throw new TypeError(`'${String(v)}' is not an integer`);
  };
  switch (type.type_name) {
    case 'TYPE_NAME_ANY':
      return value;
    case 'TYPE_NAME_BOOL':
      if (typeof value !== 'boolean') throw new TypeError('not a bool');
      return value;
    case 'TYPE_NAME_STRING':
      if (typeof value !== 'string') throw new TypeError('not a string');
      return value;
    case 'TYPE_NAME_INT':
      return integer(value);
    case 'TYPE_NAME_UINT': {
      const n = integer(value);
      if (n < 0n) throw new TypeError('not an unsigned integer');
      return n;
    }
    case 'TYPE_NAME_DOUBLE': {
      const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : Number.NaN;
      if (!Number.isFinite(n)) throw new TypeError('not a number');
      return n;
    }
    case 'TYPE_NAME_TIMESTAMP':
      if (typeof value !== 'string') throw new TypeError('not a timestamp');
      return Timestamp.parse(value);
    case 'TYPE_NAME_DURATION':
      if (typeof value !== 'string') throw new TypeError('not a duration');
      return Duration.parse(value);
    case 'TYPE_NAME_IPADDRESS':
      if (typeof value !== 'string') throw new TypeError('not an IP address');
      return new IpAddress(value);
    case 'TYPE_NAME_LIST':
      if (!Array.isArray(value)) throw new TypeError('not a list');
      return generic ? value.map((item) => toCelValue(item, generic)) : value;
    case 'TYPE_NAME_MAP': {
      if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new TypeError('not a map');
      const entries = Object.entries(value);
      return new Map(generic ? entries.map(([k, v]) => [k, toCelValue(v, generic)]) : entries);
    }
    default:
      throw new TypeError(`unsupported parameter type ${String(type.type_name)}`);
  }
}
