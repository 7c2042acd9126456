/**
 * The gRPC contract, generated from the operation registry
 * (docs/architecture.md#one-operation-three-protocols; docs/api-overview.md#three-protocols-one-registry: separate
 * public and admin services). One proto3 file:
 * package portcullis.v1, services PublicService and AdminService, one rpc per operation served over gRPC,
 * request and response messages named by the schemas' `$id`.
 *
 * The output is a pure function of the registry and must be byte-for-byte stable: messages and rpcs are
 * sorted by name, field numbers follow property order. build/gen-proto.ts writes it to proto/, a test
 * checks the file for drift, and the server parses the same text at start (no file beside the executable).
 */
import type { AnyOperation } from '../../ops/define.ts';
import type { Registry } from '../../ops/registry.ts';
import { isListSchema, isObjectSchema, objectName, scalarKind } from '../../ops/schema.ts';
import type { ScalarKind, TObject, TSchema } from '../../ops/schema.ts';

export const PROTO_PACKAGE = 'portcullis.v1';
export const GRPC_SERVICES = ['PublicService', 'AdminService'] as const;
export type GrpcServiceName = (typeof GRPC_SERVICES)[number];

const STRUCT_IMPORT = 'google/protobuf/struct.proto';
const PROTO_SCALARS: Record<ScalarKind, string> = {
  String: 'string',
  Boolean: 'bool',
  Int: 'int32',
  Int64: 'int64',
  Map: 'google.protobuf.Struct',
};
const SERVICE_COMMENTS: Record<GrpcServiceName, string> = {
  PublicService: 'Public operations: the same calls as REST /v1/... and the GraphQL fields without underscore.',
  AdminService: 'Super-admin operations (REST /v1/admin/..., GraphQL fields with underscore). Credentials travel\n' +
    'as metadata: x-service-admin-secret, or cookie service-admin=... from AdminLogin.',
};
const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

function comment(text: string | undefined, indent: string): string[] {
  if (!text) return [];
  return text.split('\n').map((line) => `${indent}// ${line}`.trimEnd());
}

function byName(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Collects every named object reachable from the operations, refusing two different shapes under one name. */
class MessageSet {
  readonly byName = new Map<string, TObject>();
  usesStruct = false;

  add(schema: TObject): string {
    const name = objectName(schema);
    if (!IDENTIFIER.test(name)) throw new Error(`schema name ${name} is not a valid protobuf message name`);
    const known = this.byName.get(name);
    if (known) {
      if (known !== schema && JSON.stringify(known) !== JSON.stringify(schema)) {
        throw new Error(`two different schemas are both named ${name}; protobuf message names must be unique`);
      }
      return name;
    }
    this.byName.set(name, schema);
    for (const [field, prop] of Object.entries(schema.properties)) this.fieldType(prop, `${name}.${field}`);
    return name;
  }

  /** The protobuf type of one field (without `repeated`/`optional`), registering nested messages. */
  fieldType(schema: TSchema, where: string): string {
    const scalar = scalarKind(schema);
    if (scalar) {
      if (scalar === 'Map') this.usesStruct = true;
      return PROTO_SCALARS[scalar];
    }
    if (isListSchema(schema)) {
      const items = (schema as unknown as { items: TSchema }).items;
      if (isListSchema(items)) throw new Error(`${where}: lists of lists have no protobuf form`);
      return this.fieldType(items, `${where}[]`);
    }
    if (isObjectSchema(schema)) return this.add(schema);
    throw new Error(`${where}: schema is neither an s.* scalar, a list nor a named object`);
  }
}

function renderField(set: MessageSet, parent: TObject, field: string, prop: TSchema, number: number): string[] {
  const where = `${objectName(parent)}.${field}`;
  if (!IDENTIFIER.test(field)) throw new Error(`${where}: not a valid protobuf field name`);
  const type = set.fieldType(prop, where);
  // Lists are `repeated`; every scalar is proto3 `optional`, required ones too, so that a missing required
  // field reaches the pipeline as missing and is refused exactly as REST and GraphQL refuse it
  // (docs/api-overview.md#three-protocols-one-registry: the three behave identically). Messages, Struct included, carry presence already.
  const label = isListSchema(prop) ? 'repeated ' : scalarKind(prop) && scalarKind(prop) !== 'Map' ? 'optional ' : '';
  // A nested object's description is its message's comment, not repeated on every field that uses it.
  const description = isObjectSchema(prop) ? undefined : prop.description;
  return [...comment(description, '  '), `  ${label}${type} ${field} = ${number};`];
}

function renderMessage(set: MessageSet, schema: TObject): string[] {
  const fields = Object.entries(schema.properties).flatMap(([field, prop], index) =>
    renderField(set, schema, field, prop, index + 1),
  );
  const head = `message ${objectName(schema)} {`;
  return [...comment(schema.description, ''), ...(fields.length === 0 ? [`${head}}`] : [head, ...fields, '}'])];
}

function renderService(set: MessageSet, service: GrpcServiceName, ops: AnyOperation[]): string[] {
  const seen = new Set<string>();
  const rpcs = ops
    .filter((op) => op.grpcService === service)
    .sort((a, b) => byName(a.grpcMethod!, b.grpcMethod!))
    .flatMap((op) => {
      const method = op.grpcMethod!;
      if (!IDENTIFIER.test(method)) throw new Error(`operation ${op.name}: ${method} is not a valid rpc name`);
      if (seen.has(method)) throw new Error(`two operations are both ${service}.${method}`);
      seen.add(method);
      const request = set.add(op.input);
      const response = set.add(op.output);
      return [...comment(op.description, '  '), `  rpc ${method}(${request}) returns (${response});`];
    });
  const head = `service ${service} {`;
  return [...comment(SERVICE_COMMENTS[service], ''), ...(rpcs.length === 0 ? [`${head}}`] : [head, ...rpcs, '}'])];
}

/** The whole .proto text for a registry; operations with `grpc: false` are left out. */
export function generateProto(registry: Registry): string {
  const set = new MessageSet();
  const ops = registry.all.filter((op) => op.grpcMethod !== undefined);
  const services = GRPC_SERVICES.map((service) => renderService(set, service, ops));
  const names = [...set.byName.keys()].sort(byName);
  for (const name of names) {
    if ((GRPC_SERVICES as readonly string[]).includes(name)) throw new Error(`message name ${name} clashes with a service`);
  }
  const messages = names.map((name) => renderMessage(set, set.byName.get(name)!));
  const lines = [
    '// Code generated by build/gen-proto.ts from the operation registry. DO NOT EDIT.',
    '// Regenerate with: node_modules/.bin/node build/gen-proto.ts',
    'syntax = "proto3";',
    '',
    `package ${PROTO_PACKAGE};`,
    '',
    ...(set.usesStruct ? [`import "${STRUCT_IMPORT}";`, ''] : []),
    ...services.flatMap((block) => [...block, '']),
    ...messages.flatMap((block) => [...block, '']),
  ];
  return lines.join('\n').replace(/\n+$/, '\n');
}
