/**
 * OpenFGA's `ipaddress` condition parameter type and its two CEL functions, `ipaddress(string)` and the
 * method `ip.in_cidr(string)`, registered with @bufbuild/cel (OpenFGA Docs, "Conditions": supported
 * parameter types). @bufbuild/cel only carries values of the CEL value kinds, so an address is a one-field
 * protobuf message named `IPAddress`, as OpenFGA names the type: two addresses are equal when their bytes
 * are (an IPv4 address never equals an IPv6 one), and a CIDR of the other family never contains it.
 */
import { celFunc, celMethod, CelScalar, objectType } from '@bufbuild/cel';
import { create, createFileRegistry } from '@bufbuild/protobuf';
import { reflect, type ReflectMessage } from '@bufbuild/protobuf/reflect';
import { FieldDescriptorProto_Label, FieldDescriptorProto_Type, FileDescriptorProtoSchema } from '@bufbuild/protobuf/wkt';
import { isIP } from 'node:net';

const registry = createFileRegistry(
  create(FileDescriptorProtoSchema, {
    name: 'portcullis/fga/ipaddress.proto',
    syntax: 'proto3',
    messageType: [
      {
        name: 'IPAddress',
        field: [{ name: 'address', jsonName: 'address', number: 1, type: FieldDescriptorProto_Type.BYTES, label: FieldDescriptorProto_Label.OPTIONAL }],
      },
    ],
  }),
  () => undefined,
);

const IPAddressSchema = registry.getMessage('IPAddress')!;
const addressField = IPAddressSchema.fields[0]!;

/** The CEL type of an `ipaddress` parameter. */
export const IPADDRESS = objectType(IPAddressSchema);

/** The 4 or 16 bytes of an IPv4 or IPv6 address, or undefined when `text` is not one. */
function addressBytes(text: string): Uint8Array | undefined {
  const family = isIP(text);
  if (family === 4) return Uint8Array.from(text.split('.').map(Number));
  if (family !== 6) return undefined;
  const [head, tail] = text.includes('::') ? text.split('::') : [text, undefined];
  const groupsOf = (part: string | undefined) => {
    const groups = part ? part.split(':') : [];
    const last = groups.at(-1);
    if (!last?.includes('.')) return groups;
    const [a, b, c, d] = last.split('.').map(Number) as [number, number, number, number];
    return [...groups.slice(0, -1), ((a << 8) | b).toString(16), ((c << 8) | d).toString(16)];
  };
  const left = groupsOf(head);
  const right = tail === undefined ? [] : groupsOf(tail);
  const fill = tail === undefined ? [] : Array<string>(8 - left.length - right.length).fill('0');
  return Uint8Array.from([...left, ...fill, ...right].flatMap((group) => {
    const value = Number.parseInt(group, 16);
    return [value >> 8, value & 0xff];
  }));
}

/** The CEL value of an IP address; throws a TypeError when `text` is not one. */
export function ipAddress(text: string): ReflectMessage {
  const bytes = addressBytes(text);
  if (!bytes) throw new TypeError(`'${text}' is not an IP address`);
  return reflect(IPAddressSchema, create(IPAddressSchema, { address: bytes } as never));
}

function inCidr(address: Uint8Array, cidr: string): boolean {
  const [networkText, prefixText, extra] = cidr.split('/');
  const network = networkText ? addressBytes(networkText) : undefined;
  const prefix = prefixText !== undefined && /^\d{1,3}$/.test(prefixText) ? Number(prefixText) : Number.NaN;
  if (!network || extra !== undefined || !(prefix >= 0 && prefix <= network.length * 8)) {
    throw new TypeError(`'${cidr}' is a malformed CIDR string`);
  }
  if (network.length !== address.length) return false;
  for (let bit = 0; bit < prefix; bit++) {
    const mask = 0x80 >> (bit % 8);
    if ((network[bit >> 3]! & mask) !== (address[bit >> 3]! & mask)) return false;
  }
  return true;
}

/**
 * The text form of an address, as OpenFGA's `string(ip)` answers it (Go's netip.Addr.String): dotted
 * IPv4, and IPv6 in RFC 5952 §4 form (lower case, no leading zeros, the longest run of two or more zero
 * groups as `::`), an IPv4-mapped address ending in dotted IPv4.
 */
function addressText(bytes: Uint8Array): string {
  if (bytes.length === 4) return bytes.join('.');
  const groups = Array.from({ length: 8 }, (_, i) => (bytes[2 * i]! << 8) | bytes[2 * i + 1]!);
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) return `::ffff:${[...bytes.slice(12)].join('.')}`;
  let best = { start: -1, length: 1 };
  for (let i = 0; i < 8; ) {
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > best.length) best = { start: i, length: j - i };
    i = j === i ? i + 1 : j;
  }
  const hex = groups.map((g) => g.toString(16));
  if (best.start < 0) return hex.join(':');
  return `${hex.slice(0, best.start).join(':')}::${hex.slice(best.start + best.length).join(':')}`;
}

/** `ipaddress("10.0.0.1")`, `ip.in_cidr("10.0.0.0/8")` and `string(ip)`. */
export const IPADDRESS_FUNCTIONS = [
  celFunc('ipaddress', [CelScalar.STRING], IPADDRESS, (text) => ipAddress(text)),
  celFunc('string', [IPADDRESS], CelScalar.STRING, (ip) => addressText(ip.get(addressField) as Uint8Array)),
  celMethod('in_cidr', IPADDRESS, [CelScalar.STRING], CelScalar.BOOL, function inCidrMethod(cidr) {
    return inCidr(this.get(addressField) as Uint8Array, cidr);
  }),
];
