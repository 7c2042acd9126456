/**
 * The OpenAPI 3.1 document of REST /v1, generated from the operation registry
 * (docs/architecture.md#one-operation-three-protocols), as proto/ and the GraphQL SDL are. Each operation served over REST becomes
 * one Operation Object: its method and path (rest-routes.ts), its input as the JSON request body (or query
 * parameters for a GET that takes any), its output as the 200 answer, the credentials its auth kind takes
 * as security requirements, and the `{code, message}` refusals with the statuses of HTTP_ERROR_MAP.
 *
 * The output is a pure function of the registry and byte-for-byte stable: build/gen-api-reference.ts
 * writes it to openapi/portcullis.v1.json, a test checks that file for drift and validates it, and the
 * server answers GET /openapi.json with the same text made from its registry (openapi-route.ts), so the
 * single executable needs no file beside it.
 */
import type { AnyOperation } from '../../ops/define.ts';
import type { Registry } from '../../ops/registry.ts';
import type { AuthKind } from '../../ops/auth.ts';
import { isRequired, scalarKind, type TSchema } from '../../ops/schema.ts';
import { HTTP_ERROR_MAP, MAX_PUBLIC_MESSAGE } from '../../kernel/errors.ts';
import { ADMIN_COOKIE } from '../../modules/admin/index.ts';
import { MFA_COOKIE, SESSION_COOKIE } from '../../kernel/cookies.ts';
import { MODULES, type ModuleManifest } from '../../modules/index.ts';
import { SchemaComponents, type JsonSchema } from './openapi-schemas.ts';
import { AUTH_TEXT, SECURITY_SCHEME_TEXT, TAG_DESCRIPTIONS, documentDescription, sentence } from './openapi-text.ts';

export const OPENAPI_VERSION = '3.1.1';

const JSON_TYPE = 'application/json';
const ERROR_SCHEMA = 'Error';

const SECURITY_SCHEMES = {
  bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: SECURITY_SCHEME_TEXT.bearer },
  session_cookie: { type: 'apiKey', in: 'cookie', name: SESSION_COOKIE, description: SECURITY_SCHEME_TEXT.session },
  admin_secret: { type: 'apiKey', in: 'header', name: 'x-service-admin-secret', description: SECURITY_SCHEME_TEXT.adminSecret },
  admin_cookie: { type: 'apiKey', in: 'cookie', name: ADMIN_COOKIE, description: SECURITY_SCHEME_TEXT.adminCookie },
  mfa_cookie: { type: 'apiKey', in: 'cookie', name: MFA_COOKIE, description: SECURITY_SCHEME_TEXT.mfa },
} as const;

type SchemeName = keyof typeof SECURITY_SCHEMES;
type SecurityRequirement = Partial<Record<SchemeName, string[]>>;

const USER: SecurityRequirement[] = [{ bearer: [] }, { session_cookie: [] }];
const ADMIN: SecurityRequirement[] = [{ admin_secret: [] }, { admin_cookie: [] }];
const MFA: SecurityRequirement[] = [{ mfa_cookie: [] }];

/** Alternatives, any one of which is enough (OpenAPI 3.1.1 section 4.8.30); `[]` is an explicit "none". */
const SECURITY: Record<AuthKind, SecurityRequirement[]> = {
  public: [],
  user: USER,
  admin: ADMIN,
  user_or_admin: [...ADMIN, ...USER],
  mfa_cookie: MFA,
  user_or_mfa_cookie: [...USER, ...MFA],
  // The bearer scheme, with a client_credentials token for the PDP rather than a user's (docs/authzen.md).
  pdp_client: [{ bearer: [] }],
};

/** Client errors Fastify raises itself before an operation runs, in the same envelope (errors.ts). */
const BODY_STATUSES: Record<string, string> = {
  413: 'The body is larger than 1 MiB.',
  415: 'The body is neither `application/json` nor `application/x-www-form-urlencoded`.',
};

function errorStatuses(): Map<number, string[]> {
  const byStatus = new Map<number, string[]>();
  for (const { status, code } of Object.values(HTTP_ERROR_MAP)) {
    const codes = byStatus.get(status) ?? [];
    if (!codes.includes(code)) codes.push(code);
    byStatus.set(status, codes);
  }
  return new Map([...byStatus].sort(([a], [b]) => a - b));
}

function errorResponses(): Record<string, JsonSchema> {
  const content = { [JSON_TYPE]: { schema: { $ref: `#/components/schemas/${ERROR_SCHEMA}` } } };
  const responses: Record<string, JsonSchema> = {};
  for (const [status, codes] of errorStatuses()) {
    const response: JsonSchema = { description: `Refused: \`code\` is ${codes.map((code) => `\`${code}\``).join(' or ')}.`, content };
    if (status === 405) response.headers = { Allow: { description: 'The methods the path takes.', schema: { type: 'string' } } };
    if (status === 429) {
      response.headers = { 'Retry-After': { description: 'Seconds until the caller may try again (RFC 9110 section 10.2.3).', schema: { type: 'integer', minimum: 1 } } };
    }
    responses[`Error${status}`] = response;
  }
  for (const [status, description] of Object.entries(BODY_STATUSES)) {
    responses[`Error${status}`] = { description: `${description} \`code\` is \`invalid_argument\`.`, content };
  }
  return responses;
}

function errorSchema(): JsonSchema {
  const codes = [...new Set(Object.values(HTTP_ERROR_MAP).map(({ code }) => code))];
  return {
    type: 'object',
    description: 'The answer of every refused REST call.',
    properties: {
      code: { type: 'string', enum: codes, description: 'The kind of refusal; the HTTP status follows from it.' },
      message: { type: 'string', maxLength: MAX_PUBLIC_MESSAGE, description: 'What went wrong, for a person; never holds a secret.' },
    },
    required: ['code', 'message'],
  };
}

function propertiesOf(op: AnyOperation): [string, TSchema][] {
  return Object.entries(op.input.properties ?? {}) as [string, TSchema][];
}

/** Query parameters of a GET that takes input; only scalars fit a query string. */
function queryParameters(op: AnyOperation, schemas: SchemaComponents): JsonSchema[] {
  return propertiesOf(op).map(([field, property]) => {
    const where = `${op.name}(${field})`;
    if (scalarKind(property) === undefined || scalarKind(property) === 'Map') {
      throw new Error(`${where}: a GET operation's input fields must be scalars to travel as query parameters`);
    }
    const schema = schemas.field(property, where);
    const { description, ...rest } = schema;
    return { name: field, in: 'query', required: isRequired(op.input, field), ...(description ? { description } : {}), schema: rest };
  });
}

function operationObject(op: AnyOperation, tag: string, schemas: SchemaComponents): JsonSchema {
  const { method } = op.restRoute!;
  const graphql = `${op.kind} ${op.graphqlName}`;
  const grpc = op.grpcMethod ? `${op.grpcService}.${op.grpcMethod}` : undefined;
  const elsewhere = `Also GraphQL \`${graphql}\`${grpc ? ` and gRPC \`${grpc}\`` : ''}.`;
  const operation: JsonSchema = {
    operationId: op.name,
    summary: op.description,
    description: `${sentence(op.description)}\n\nCredentials: ${AUTH_TEXT[op.auth]}\n\n${elsewhere}`,
    tags: [tag],
    security: SECURITY[op.auth],
  };
  const hasInput = propertiesOf(op).length > 0;
  if (hasInput && method === 'GET') operation.parameters = queryParameters(op, schemas);
  if (hasInput && method === 'POST') {
    operation.requestBody = {
      required: (op.input.required ?? []).length > 0,
      content: { [JSON_TYPE]: { schema: schemas.ref(op.input, `${op.name} input`) } },
    };
  }
  const responses: Record<string, JsonSchema> = {
    200: { description: 'The operation\'s result.', content: { [JSON_TYPE]: { schema: schemas.ref(op.output, `${op.name} output`) } } },
  };
  for (const status of errorStatuses().keys()) responses[status] = { $ref: `#/components/responses/Error${status}` };
  if (method === 'POST') for (const status of Object.keys(BODY_STATUSES)) responses[status] = { $ref: `#/components/responses/Error${status}` };
  operation.responses = Object.fromEntries(Object.entries(responses).sort(([a], [b]) => Number(a) - Number(b)));
  operation['x-portcullis-graphql'] = graphql;
  if (grpc) operation['x-portcullis-grpc'] = grpc;
  return operation;
}

/** The tag of each operation: the module that contributes it (modules/index.ts). */
function moduleTags(modules: readonly ModuleManifest[]): Map<AnyOperation, string> {
  const tags = new Map<AnyOperation, string>();
  for (const module of modules) for (const op of module.operations) tags.set(op, module.name);
  return tags;
}

/** The OpenAPI document of a registry, as an object; operations not served over REST are left out. */
export function generateOpenApi(registry: Registry, modules: readonly ModuleManifest[] = MODULES): Record<string, unknown> {
  const schemas = new SchemaComponents(new Set([ERROR_SCHEMA]));
  const tagOf = moduleTags(modules);
  const paths: Record<string, Record<string, JsonSchema>> = {};
  const usedTags: string[] = [];
  const gets: string[] = [];
  for (const op of registry.all) {
    if (!op.restRoute) continue;
    const { method, path } = op.restRoute;
    const tag = tagOf.get(op) ?? (op.admin ? 'admin' : 'other');
    if (!usedTags.includes(tag)) usedTags.push(tag);
    if (method === 'GET') gets.push(path);
    (paths[path] ??= {})[method.toLowerCase()] = operationObject(op, tag, schemas);
  }
  return {
    openapi: OPENAPI_VERSION,
    info: {
      title: 'Portcullis API',
      version: 'v1',
      description: documentDescription(gets),
      license: { name: 'Apache-2.0', identifier: 'Apache-2.0' },
    },
    tags: usedTags.map((name) => (TAG_DESCRIPTIONS[name] ? { name, description: TAG_DESCRIPTIONS[name] } : { name })),
    paths,
    components: {
      schemas: { ...schemas.all(), [ERROR_SCHEMA]: errorSchema() },
      responses: errorResponses(),
      securitySchemes: SECURITY_SCHEMES,
    },
  };
}

/** The document as the committed file and GET /openapi.json hold it: two-space JSON and a final newline. */
export function openApiText(registry: Registry, modules?: readonly ModuleManifest[]): string {
  return `${JSON.stringify(generateOpenApi(registry, modules), null, 2)}\n`;
}
