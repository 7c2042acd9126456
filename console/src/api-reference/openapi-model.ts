/**
 * The server's OpenAPI 3.1 document (GET /openapi.json, generated from its operation registry) read into
 * what the API reference page shows: operations grouped by tag in the document's order, each with its
 * method, path, credentials and the fields of its request and answer, nested objects flattened to dotted
 * names. Only the shapes the server's generator writes are understood (server/transports/http/openapi-*.ts).
 */

export type JsonSchema = {
  $ref?: string;
  type?: string;
  format?: string;
  description?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  additionalProperties?: boolean;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
};

interface OperationObject {
  operationId: string;
  summary?: string;
  description?: string;
  tags?: string[];
  security?: Record<string, string[]>[];
  parameters?: { name: string; in: string; required?: boolean; description?: string; schema: JsonSchema }[];
  requestBody?: { content: Record<string, { schema: JsonSchema }> };
  responses: Record<string, { $ref?: string; content?: Record<string, { schema: JsonSchema }> }>;
  'x-portcullis-graphql'?: string;
  'x-portcullis-grpc'?: string;
}

interface SecurityScheme {
  type: string;
  scheme?: string;
  in?: string;
  name?: string;
  description?: string;
}

export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; description?: string };
  tags?: { name: string; description?: string }[];
  paths: Record<string, Record<string, OperationObject>>;
  components: {
    schemas: Record<string, JsonSchema>;
    responses?: Record<string, { description: string }>;
    securitySchemes?: Record<string, SecurityScheme>;
  };
}

export interface FieldRow {
  /** Dotted path from the top object: `user.email`, `roles[]`, `items[].id`. */
  name: string;
  type: string;
  required: boolean;
  description?: string;
  /** The field's bounds, as the page words them (i18n `limits.<kind>`). */
  limits: Limit[];
}

export interface Limit {
  kind: 'minLength' | 'maxLength' | 'minimum' | 'maximum' | 'minItems' | 'maxItems';
  value: number;
}

/** One way to authenticate: a bearer token, or a named header or cookie (OpenAPI apiKey scheme). */
export interface Credential {
  scheme: string;
  kind: 'bearer' | 'header' | 'cookie' | 'other';
  /** The header or cookie name. */
  name?: string;
  description?: string;
}

export interface ApiOperation {
  id: string;
  method: 'GET' | 'POST';
  path: string;
  summary: string;
  description: string;
  /** Any one of them is enough; empty: none needed. */
  credentials: Credential[];
  /** The component name of the request body, if any, and its fields (or the query parameters of a GET). */
  request?: { name?: string; fields: FieldRow[] };
  response: { name?: string; fields: FieldRow[] };
  graphql?: string;
  grpc?: string;
}

export interface ApiTag {
  name: string;
  description?: string;
  operations: ApiOperation[];
}

const REF_PREFIX = '#/components/schemas/';
const INT32_MIN = -2147483648;
const INT32_MAX = 2147483647;
/** Deep enough for every nesting the server has; a guard against cycles beside the reference stack. */
const MAX_DEPTH = 6;

function refName(schema: JsonSchema): string | undefined {
  return schema.$ref?.startsWith(REF_PREFIX) ? schema.$ref.slice(REF_PREFIX.length) : undefined;
}

const LIMIT_KINDS: Limit['kind'][] = ['minLength', 'maxLength', 'minimum', 'maximum', 'minItems', 'maxItems'];

/** The bounds a field declares; a 32-bit integer's own range is its type, not a bound worth showing. */
function limitsOf(schema: JsonSchema): Limit[] {
  return LIMIT_KINDS.flatMap((kind) => {
    const value = schema[kind];
    if (value === undefined) return [];
    if ((kind === 'minimum' && value === INT32_MIN) || (kind === 'maximum' && value === INT32_MAX)) return [];
    return [{ kind, value }];
  });
}

/** The type of a field in words: `string`, `integer (int64)`, `User`, `Tuple[]`, `object (any JSON)`. */
export function typeName(schema: JsonSchema): string {
  const ref = refName(schema);
  if (ref) return ref;
  if (schema.type === 'array') return `${typeName(schema.items ?? {})}[]`;
  if (schema.type === 'object' && schema.additionalProperties === true) return 'object (any JSON)';
  if (schema.type === 'integer' && schema.format) return `integer (${schema.format})`;
  return schema.type ?? 'any';
}

function resolve(doc: OpenApiDocument, schema: JsonSchema): JsonSchema {
  const ref = refName(schema);
  return ref ? (doc.components.schemas[ref] ?? {}) : schema;
}

/** The rows of an object's fields, each nested object's fields right below it under its dotted name. */
export function fieldRows(doc: OpenApiDocument, schema: JsonSchema, prefix = '', seen: string[] = []): FieldRow[] {
  const object = resolve(doc, schema);
  const rows: FieldRow[] = [];
  for (const [field, property] of Object.entries(object.properties ?? {})) {
    const name = `${prefix}${field}`;
    rows.push({ name, type: typeName(property), required: (object.required ?? []).includes(field), description: property.description, limits: limitsOf(property) });
    const isList = property.type === 'array';
    const inner = isList ? (property.items ?? {}) : property;
    const ref = refName(inner);
    if (ref && !seen.includes(ref) && seen.length < MAX_DEPTH) {
      rows.push(...fieldRows(doc, inner, `${name}${isList ? '[]' : ''}.`, [...seen, ref]));
    }
  }
  return rows;
}

function credentialsOf(doc: OpenApiDocument, security: Record<string, string[]>[] = []): Credential[] {
  return security.flatMap((requirement) => Object.keys(requirement)).map((key): Credential => {
    const scheme = doc.components.securitySchemes?.[key];
    if (scheme?.type === 'http' && scheme.scheme?.toLowerCase() === 'bearer') return { scheme: key, kind: 'bearer', description: scheme.description };
    if (scheme?.type === 'apiKey' && (scheme.in === 'header' || scheme.in === 'cookie')) {
      return { scheme: key, kind: scheme.in, name: scheme.name, description: scheme.description };
    }
    return { scheme: key, kind: 'other', description: scheme?.description };
  });
}

const JSON_TYPE = 'application/json';

function readOperation(doc: OpenApiDocument, method: string, path: string, op: OperationObject): ApiOperation {
  const body = op.requestBody?.content[JSON_TYPE]?.schema;
  const answer = op.responses['200']?.content?.[JSON_TYPE]?.schema ?? {};
  const query = op.parameters?.filter((parameter) => parameter.in === 'query') ?? [];
  let request: ApiOperation['request'];
  if (body) request = { name: refName(body), fields: fieldRows(doc, body) };
  else if (query.length > 0) {
    request = {
      fields: query.map((parameter) => ({
        name: parameter.name,
        type: typeName(parameter.schema),
        required: parameter.required === true,
        description: parameter.description,
        limits: limitsOf(parameter.schema),
      })),
    };
  }
  return {
    id: op.operationId,
    method: method.toUpperCase() === 'GET' ? 'GET' : 'POST',
    path,
    summary: op.summary ?? op.operationId,
    description: op.description ?? '',
    credentials: credentialsOf(doc, op.security),
    request,
    response: { name: refName(answer), fields: fieldRows(doc, answer) },
    graphql: op['x-portcullis-graphql'],
    grpc: op['x-portcullis-grpc'],
  };
}

/** The document's operations by tag, tags in the document's order, operations in path order. */
export function operationsByTag(doc: OpenApiDocument): ApiTag[] {
  const tags = new Map<string, ApiTag>((doc.tags ?? []).map((tag) => [tag.name, { ...tag, operations: [] }]));
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      const name = op.tags?.[0] ?? 'other';
      if (!tags.has(name)) tags.set(name, { name, operations: [] });
      tags.get(name)!.operations.push(readOperation(doc, method, path, op));
    }
  }
  return [...tags.values()].filter((tag) => tag.operations.length > 0);
}

/** Operations whose name, path, summary or GraphQL/gRPC name holds every word of `query` (any case). */
export function matchingOperations(tags: ApiTag[], query: string): ApiTag[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return tags;
  return tags
    .map((tag) => ({
      ...tag,
      operations: tag.operations.filter((op) => {
        const text = [op.id, op.path, op.summary, op.graphql, op.grpc, tag.name].join(' ').toLowerCase();
        return words.every((word) => text.includes(word));
      }),
    }))
    .filter((tag) => tag.operations.length > 0);
}
