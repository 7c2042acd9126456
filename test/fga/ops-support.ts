/**
 * Helpers for the FGA operation tests: one call of a registry operation over REST, GraphQL or gRPC with
 * the same input and credentials, answered in one shape ({ok} or {error kind, message}); users with real
 * sessions; and access tokens carrying an RFC 8693 `act` claim, minted the way the server mints its own
 * (signed with deps.keys and recorded, so the user authenticator accepts them).
 */
import { decodeJwt } from 'jose';
import { status as grpcStatus } from '@grpc/grpc-js';
import { startServer, ADMIN_SECRET, type TestServer } from '../support/app.ts';
import { createGrpcClient, type GrpcFailure, type GrpcTestClient } from '../support/grpc-client.ts';
import { registry } from '../../server/ops/registry.ts';
import type { AppOverrides } from '../../server/app.ts';
import { HTTP_ERROR_MAP, KIND_BY_GRAPHQL_CODE, type ErrorKind } from '../../server/kernel/errors.ts';
import { GRPC_STATUS_BY_KIND } from '../../server/transports/grpc/status.ts';
import { buildGraphqlSchema, graphqlRequestFor } from '../../server/transports/graphql/index.ts';
import { dropNulls } from '../../server/ops/validate.ts';
import { signToken } from '../../server/modules/tokens/jwt.ts';
import { findTokenRecord, recordToken } from '../../server/modules/tokens/token-records.ts';
import type { UserRow } from '../../server/modules/users/user.entity.ts';
import { createUser, login } from '../tokens/support.ts';

export const PROTOCOLS = ['rest', 'graphql', 'grpc'] as const;
export type Protocol = (typeof PROTOCOLS)[number];

export type Outcome = { ok: any } | { error: ErrorKind; message: string };

export const ADMIN = { 'x-service-admin-secret': ADMIN_SECRET } as const;

const graphqlSchema = buildGraphqlSchema(registry.all);
const KIND_BY_REST_CODE = Object.fromEntries(Object.entries(HTTP_ERROR_MAP).map(([kind, { code }]) => [code, kind])) as Record<string, ErrorKind>;
const KIND_BY_GRPC_STATUS = Object.fromEntries(
  (Object.entries(GRPC_STATUS_BY_KIND) as [ErrorKind, number][]).reverse().map(([kind, code]) => [code, kind]),
) as Record<number, ErrorKind>;

export interface FgaTestServer {
  server: TestServer;
  grpc: GrpcTestClient;
  /** Calls a registry operation by name over one protocol. */
  call(protocol: Protocol, name: string, input?: Record<string, unknown>, headers?: Record<string, string>): Promise<Outcome>;
  /** Calls over REST and expects success. */
  ok(name: string, input?: Record<string, unknown>, headers?: Record<string, string>): Promise<any>;
  close(): Promise<void>;
}

export async function startFgaServer(extraFlags: string[] = [], overrides: AppOverrides = {}): Promise<FgaTestServer> {
  const server = await startServer(extraFlags, overrides);
  const grpc = createGrpcClient(server.ports.grpc!);

  async function overRest(name: string, input: Record<string, unknown>, headers: Record<string, string>): Promise<Outcome> {
    const op = registry.byName(name)!;
    const route = op.restRoute!;
    const base = { origin: server.baseUrl, ...headers };
    const res =
      route.method === 'GET'
        ? await fetch(`${server.baseUrl}${route.path}?${new URLSearchParams(input as Record<string, string>)}`, { headers: base })
        : await fetch(server.baseUrl + route.path, {
            method: 'POST',
            headers: { ...base, 'content-type': 'application/json' },
            body: JSON.stringify(input),
          });
    const body = await res.json();
    if (res.status === 200) return { ok: body };
    const kind = KIND_BY_REST_CODE[body.code]!;
    if (HTTP_ERROR_MAP[kind].status !== res.status) throw new Error(`REST status ${res.status} does not match code ${body.code}`);
    return { error: kind, message: body.message };
  }

  async function overGraphql(name: string, input: Record<string, unknown>, headers: Record<string, string>): Promise<Outcome> {
    const op = registry.byName(name)!;
    const res = await fetch(`${server.baseUrl}/graphql`, {
      method: 'POST',
      headers: { origin: server.baseUrl, 'content-type': 'application/json', ...headers },
      body: JSON.stringify(graphqlRequestFor(graphqlSchema, op, input)),
    });
    const body = await res.json();
    if (body.errors?.length) return { error: KIND_BY_GRAPHQL_CODE[body.errors[0].extensions?.code]!, message: body.errors[0].message };
    return { ok: dropNulls(body.data[op.graphqlName]) };
  }

  async function overGrpc(name: string, input: Record<string, unknown>, headers: Record<string, string>): Promise<Outcome> {
    const op = registry.byName(name)!;
    try {
      const { response } = await grpc.call(op.grpcService, op.grpcMethod!, input, headers);
      return { ok: dropNulls(response) };
    } catch (err) {
      const failure = err as GrpcFailure;
      return { error: KIND_BY_GRPC_STATUS[failure.code] ?? KIND_BY_GRPC_STATUS[grpcStatus.UNKNOWN]!, message: failure.details };
    }
  }

  const callers = { rest: overRest, graphql: overGraphql, grpc: overGrpc };
  const fga: FgaTestServer = {
    server,
    grpc,
    call: (protocol, name, input = {}, headers = {}) => callers[protocol](name, input, headers),
    async ok(name, input = {}, headers = ADMIN) {
      const outcome = await overRest(name, input, headers);
      if (!('ok' in outcome)) throw new Error(`${name} failed: ${outcome.error}: ${outcome.message}`);
      return outcome.ok;
    },
    async close() {
      grpc.close();
      await server.close();
    },
  };
  return fga;
}

/** The error kind of an outcome, or 'ok'. */
export function kindOf(outcome: Outcome): ErrorKind | 'ok' {
  return 'ok' in outcome ? 'ok' : outcome.error;
}

export interface TestUser {
  user: UserRow;
  /** `user:<id>` */
  subject: string;
  accessToken: string;
  sessionToken: string;
  bearer: Record<string, string>;
  cookie: Record<string, string>;
}

export async function signedInUser(fga: FgaTestServer): Promise<TestUser> {
  const { app } = fga.server;
  const user = await createUser(app);
  const { tokens, sessionToken } = await login(app, user);
  return {
    user,
    subject: `user:${user.id}`,
    accessToken: tokens.access_token!,
    sessionToken,
    bearer: { authorization: `Bearer ${tokens.access_token}` },
    cookie: { cookie: `cookie_session=${sessionToken}` },
  };
}

/**
 * An access token of `user`'s session that an agent holds: the user's own access claims plus
 * `act: {sub: agentId}` (RFC 8693 section 4.1), signed and recorded like the server's own tokens.
 */
export async function agentToken(fga: FgaTestServer, user: TestUser, agentId: string): Promise<string> {
  const { app } = fga.server;
  const claims = { ...decodeJwt(user.accessToken), act: { sub: agentId }, jti: crypto.randomUUID() };
  const token = await signToken(app.deps.keys, claims);
  const em = app.deps.storage.fork();
  const { sessionId } = (await findTokenRecord(em, user.accessToken))!;
  recordToken(em, { token, kind: 'access', userId: user.user.id, sessionId, familyId: null, expiresAt: new Date(Number(claims.exp) * 1000) });
  await em.flush();
  return token;
}
