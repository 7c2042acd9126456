/**
 * One operation called over REST, GraphQL or gRPC with the same input and credentials, answering one shape:
 * ok or not, the body, the protocol's error code, and the cookies set. Lets a test prove a behaviour on
 * each transport without repeating three clients.
 */
import { registry } from '../../server/ops/registry.ts';
import { buildGraphqlSchema, graphqlRequestFor } from '../../server/transports/graphql/index.ts';
import { dropNulls } from '../../server/ops/validate.ts';
import type { TestServer } from '../support/app.ts';
import { cookiesFrom, createGrpcClient, type GrpcFailure, type GrpcTestClient } from '../support/grpc-client.ts';

export type Protocol = 'rest' | 'graphql' | 'grpc';

export interface OpReply {
  ok: boolean;
  body: any;
  /** REST body.code, GraphQL extensions.code, or the gRPC status number as a string. */
  code?: string;
  /** `name=value; name=value` of the cookies the answer set. */
  cookies: string;
}

const graphqlSchema = buildGraphqlSchema(registry.all);

function restCookies(headers: Headers): string {
  return headers.getSetCookie().map((c) => c.split(';')[0]!).filter((c) => !c.endsWith('=')).join('; ');
}

export function opCaller(server: TestServer) {
  let grpc: GrpcTestClient | undefined;
  async function call(protocol: Protocol, name: string, input: Record<string, unknown> = {}, headers: Record<string, string> = {}): Promise<OpReply> {
    const op = registry.byName(name);
    if (!op) throw new Error(`no operation ${name}`);
    if (protocol === 'rest') {
      const route = op.restRoute!;
      const res = await fetch(server.baseUrl + route.path, {
        method: route.method,
        headers: { origin: server.baseUrl, ...(route.method === 'POST' ? { 'content-type': 'application/json' } : {}), ...headers },
        body: route.method === 'POST' ? JSON.stringify(input) : undefined,
      });
      const body = await res.json();
      return { ok: res.ok, body, code: res.ok ? undefined : body.code, cookies: restCookies(res.headers) };
    }
    if (protocol === 'graphql') {
      const res = await fetch(`${server.baseUrl}/graphql`, {
        method: 'POST',
        headers: { origin: server.baseUrl, 'content-type': 'application/json', ...headers },
        body: JSON.stringify(graphqlRequestFor(graphqlSchema, op, input)),
      });
      const body = await res.json();
      const error = body.errors?.[0];
      const data = body.data?.[op.graphqlName];
      return { ok: !error, body: error ? error : dropNulls(data), code: error?.extensions?.code, cookies: restCookies(res.headers) };
    }
    grpc ??= createGrpcClient(server.ports.grpc!);
    try {
      const { response, metadata } = await grpc.call(op.grpcService, op.grpcMethod!, input, headers);
      return { ok: true, body: dropNulls(response), cookies: cookiesFrom(metadata) };
    } catch (err) {
      const failure = err as GrpcFailure;
      if (typeof failure.code !== 'number') throw err;
      return { ok: false, body: { message: failure.details }, code: String(failure.code), cookies: '' };
    }
  }
  return { call, close: () => grpc?.close() };
}

/** The error code each protocol uses for an error kind the tests expect. */
export const CODES = {
  unauthenticated: { rest: 'unauthenticated', graphql: 'UNAUTHENTICATED', grpc: '16' },
  forbidden: { rest: 'permission_denied', graphql: 'PERMISSION_DENIED', grpc: '7' },
  invalid: { rest: 'invalid_argument', graphql: 'INVALID_ARGUMENT', grpc: '3' },
} as const;
