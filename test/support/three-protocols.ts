/**
 * One registry operation called over REST, GraphQL or gRPC with the same input and the same caller, for
 * the tests that prove a behaviour on each transport
 * (docs/architecture.md#one-operation-three-protocols; docs/errors.md for the error kinds). Every answer comes back in one shape: `send` gives the
 * whole reply (body, the error kind, the protocol's raw code, the cookies set); `call` the outcome a test
 * compares across protocols ({ok: body} or {error: kind, message}); `over` asserts success and answers the
 * body. GraphQL and gRPC bodies drop nulls, as gRPC omits them.
 */
import assert from 'node:assert/strict';
import { ADMIN_SECRET } from './app.ts';
import { cookiesFrom, createGrpcClient, type GrpcFailure, type GrpcTestClient } from './grpc-client.ts';
import { registry } from '../../server/ops/registry.ts';
import type { AnyOperation } from '../../server/ops/define.ts';
import { HTTP_ERROR_MAP, KIND_BY_GRAPHQL_CODE, type ErrorKind } from '../../server/kernel/errors.ts';
import { GRPC_STATUS_BY_KIND } from '../../server/transports/grpc/status.ts';
import { buildGraphqlSchema, graphqlRequestFor } from '../../server/transports/graphql/index.ts';
import { dropNulls } from '../../server/ops/validate.ts';

export type Protocol = 'rest' | 'graphql' | 'grpc';
export const PROTOCOLS: readonly Protocol[] = ['rest', 'graphql', 'grpc'];

/** The admin secret header the super-admin sends. */
export const ADMIN_HEADERS: Readonly<Record<string, string>> = { 'x-service-admin-secret': ADMIN_SECRET };

/** Who calls: the super-admin, a user's access token, nobody, or any headers (a session cookie, another secret). */
export type Caller = 'admin' | 'anonymous' | { bearer: string } | Record<string, string>;

/** An ErrorKind; for an answer the server's tables do not name, its REST code, `http <status>` or `grpc <code>`. */
export type Kind = ErrorKind | (string & {});

export type Outcome = { ok: any } | { error: Kind; message: string };

export interface ProtocolReply {
  ok: boolean;
  /** The body on success; on failure the REST body, the GraphQL error, or `{message}` of the gRPC status. */
  body: any;
  kind?: Kind;
  /** REST body.code, GraphQL extensions.code, or the gRPC status number as a string. */
  code?: string;
  message?: string;
  /** `name=value; name=value` of the cookies the answer set (cleared ones left out). */
  cookies: string;
}

/** The error code each protocol uses for an error kind the tests expect. */
export const CODES = {
  unauthenticated: { rest: 'unauthenticated', graphql: 'UNAUTHENTICATED', grpc: '16' },
  forbidden: { rest: 'permission_denied', graphql: 'PERMISSION_DENIED', grpc: '7' },
  invalid: { rest: 'invalid_argument', graphql: 'INVALID_ARGUMENT', grpc: '3' },
} as const;

const KIND_BY_REST_CODE = Object.fromEntries(Object.entries(HTTP_ERROR_MAP).map(([kind, { code }]) => [code, kind])) as Record<string, ErrorKind>;
/** For a REST error without a known code: the first kind answered with that status. */
const KIND_BY_HTTP_STATUS = Object.fromEntries(Object.entries(HTTP_ERROR_MAP).reverse().map(([kind, { status }]) => [status, kind])) as Record<number, ErrorKind>;
/** UNIMPLEMENTED stands for both protocol refusals (method_not_allowed, unimplemented); they compare as one kind. */
export const KIND_BY_GRPC_STATUS = Object.fromEntries(
  (Object.entries(GRPC_STATUS_BY_KIND) as [ErrorKind, number][]).reverse().map(([kind, code]) => [code, kind]),
) as Record<number, ErrorKind>;

/** A server as the tests reach it: a TestServer, or a separately started executable's base URL (and gRPC port). */
export interface Reachable {
  baseUrl: string;
  ports?: { grpc?: number };
  app?: { deps: { config: { url?: string } } };
}

/**
 * The Origin a REST call sends: the server's canonical --url, which the CSRF rule always lets through
 * (docs/api-overview.md#authentication), whatever --allowed-origins a test set; else its own base URL.
 */
export function originOf(server: Reachable): string {
  const url = server.app?.deps.config.url;
  return url ? new URL(url).origin : server.baseUrl;
}

let graphqlSchema: ReturnType<typeof buildGraphqlSchema> | undefined;

export function headersOf(caller: Caller): Record<string, string> {
  if (caller === 'admin') return { ...ADMIN_HEADERS };
  if (caller === 'anonymous') return {};
  if (typeof caller.bearer === 'string' && Object.keys(caller).length === 1) return { authorization: `Bearer ${caller.bearer}` };
  return caller as Record<string, string>;
}

function setCookies(headers: Headers): string {
  return headers.getSetCookie().map((c) => c.split(';')[0]!).filter((c) => !c.endsWith('=')).join('; ');
}

/** The operation, or where a protocol does not carry it, the route or method it would have (to see the refusal). */
function operation(name: string | AnyOperation): AnyOperation {
  const op = typeof name === 'string' ? registry.byName(name) : name;
  assert.ok(op, `no operation ${String(name)}`);
  return op;
}

async function overRest(server: Reachable, op: AnyOperation, input: Record<string, unknown>, headers: Record<string, string>): Promise<ProtocolReply> {
  const base = server.baseUrl;
  const origin = originOf(server);
  const route = op.restRoute ?? { method: 'POST', path: op.admin ? `/v1/admin/${op.name}` : `/v1/${op.name}` };
  const res =
    route.method === 'GET'
      ? await fetch(`${base}${route.path}${Object.keys(input).length ? `?${new URLSearchParams(input as Record<string, string>)}` : ''}`, { headers: { origin, ...headers } })
      : await fetch(base + route.path, {
          method: 'POST',
          headers: { origin, 'content-type': 'application/json', ...headers },
          body: JSON.stringify(input),
        });
  const text = await res.text();
  const body = text ? JSON.parse(text) : undefined;
  const cookies = setCookies(res.headers);
  if (res.ok) return { ok: true, body, cookies };
  const known = KIND_BY_REST_CODE[body?.code];
  if (known) assert.equal(res.status, HTTP_ERROR_MAP[known].status, `REST status of ${op.name} does not match its code ${body.code}`);
  const kind: Kind = known ?? (typeof body?.code === 'string' ? body.code : (KIND_BY_HTTP_STATUS[res.status] ?? `http ${res.status}`));
  return { ok: false, body, kind, code: body?.code, message: body?.message ?? body?.error ?? text, cookies };
}

async function overGraphql(server: Reachable, op: AnyOperation, input: Record<string, unknown>, headers: Record<string, string>): Promise<ProtocolReply> {
  graphqlSchema ??= buildGraphqlSchema(registry.all);
  const res = await fetch(`${server.baseUrl}/graphql`, {
    method: 'POST',
    headers: { origin: originOf(server), 'content-type': 'application/json', ...headers },
    body: JSON.stringify(graphqlRequestFor(graphqlSchema, op, input)),
  });
  const body = await res.json();
  const cookies = setCookies(res.headers);
  const error = body.errors?.[0];
  if (!error) return { ok: true, body: dropNulls(body.data[op.graphqlName]), cookies };
  const code = error.extensions?.code as string | undefined;
  const kind: Kind = KIND_BY_GRAPHQL_CODE[code ?? ''] ?? String(code).toLowerCase();
  return { ok: false, body: error, kind, code, message: error.message, cookies };
}

async function overGrpc(grpc: GrpcTestClient, op: AnyOperation, input: Record<string, unknown>, headers: Record<string, string>): Promise<ProtocolReply> {
  try {
    const { response, metadata } = await grpc.call(op.grpcService, op.grpcMethod ?? op.name, input, headers);
    return { ok: true, body: dropNulls(response), cookies: cookiesFrom(metadata) };
  } catch (err) {
    const failure = err as GrpcFailure;
    if (typeof failure.code !== 'number') throw err;
    const kind: Kind = KIND_BY_GRPC_STATUS[failure.code] ?? `grpc ${failure.code}`;
    return { ok: false, body: { message: failure.details }, kind, code: String(failure.code), message: failure.details, cookies: '' };
  }
}

/** The outcome compared across protocols: the body, or the error kind and message. */
export function outcomeOf(reply: ProtocolReply): Outcome {
  return reply.ok ? { ok: reply.body } : { error: reply.kind!, message: reply.message! };
}

/** The error kind of an outcome, or 'ok'. */
export function kindOf(outcome: Outcome): Kind | 'ok' {
  return 'ok' in outcome ? 'ok' : outcome.error;
}

/**
 * The callers over one server. `server` may be a function, read at each call, for a server started in a
 * `before` hook; a gRPC client is made on the first gRPC call unless one is given, and `close` ends it.
 */
export function threeProtocols(server: Reachable | (() => Reachable), grpcClient?: () => GrpcTestClient) {
  const serverNow = typeof server === 'function' ? server : () => server;
  let own: GrpcTestClient | undefined;
  const grpc = grpcClient ?? (() => (own ??= createGrpcClient(serverNow().ports!.grpc!)));

  function send(protocol: Protocol, name: string | AnyOperation, input: Record<string, unknown> = {}, caller: Caller = 'anonymous'): Promise<ProtocolReply> {
    const op = operation(name);
    const headers = headersOf(caller);
    if (protocol === 'rest') return overRest(serverNow(), op, input, headers);
    if (protocol === 'graphql') return overGraphql(serverNow(), op, input, headers);
    return overGrpc(grpc(), op, input, headers);
  }

  async function call(protocol: Protocol, name: string | AnyOperation, input: Record<string, unknown> = {}, caller: Caller = 'admin'): Promise<Outcome> {
    return outcomeOf(await send(protocol, name, input, caller));
  }

  async function over(protocol: Protocol, name: string | AnyOperation, input: Record<string, unknown> = {}, caller: Caller = 'admin'): Promise<any> {
    const reply = await send(protocol, name, input, caller);
    assert.ok(reply.ok, `${protocol} ${typeof name === 'string' ? name : name.name}: ${JSON.stringify(outcomeOf(reply))}`);
    return reply.body;
  }

  /** The same call over the three protocols: each must succeed with the same body, which it answers. */
  async function overAll(name: string, input: Record<string, unknown> = {}, caller: Caller = 'admin'): Promise<any> {
    const rest = await over('rest', name, input, caller);
    assert.deepEqual(await over('graphql', name, input, caller), rest, `GraphQL and REST differ for ${name}`);
    assert.deepEqual(await over('grpc', name, input, caller), rest, `gRPC and REST differ for ${name}`);
    return rest;
  }

  return {
    send,
    call,
    over,
    overAll,
    close: () => {
      own?.close();
      own = undefined;
    },
  };
}

export type ThreeProtocols = ReturnType<typeof threeProtocols>;
