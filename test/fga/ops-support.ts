/**
 * Helpers for the FGA operation tests: one call of a registry operation over REST, GraphQL or gRPC with
 * the same input and credentials, answered in one shape ({ok} or {error kind, message}); users with real
 * sessions; and access tokens carrying an RFC 8693 `act` claim, minted the way the server mints its own
 * (signed with deps.keys and recorded, so the user authenticator accepts them).
 */
import { decodeJwt } from 'jose';
import { startServer, type TestServer } from '../support/app.ts';
import { createGrpcClient, type GrpcTestClient } from '../support/grpc-client.ts';
import { threeProtocols, type Outcome, type Protocol } from '../support/three-protocols.ts';
import { signedInUser as newSignedInUser } from '../support/signed-in-user.ts';
import type { AppOverrides } from '../../server/app.ts';
import { signToken } from '../../server/modules/tokens/jwt.ts';
import { findTokenRecord, recordToken } from '../../server/modules/tokens/token-records.ts';

export { PROTOCOLS, kindOf, ADMIN_HEADERS as ADMIN, type Protocol, type Outcome } from '../support/three-protocols.ts';

export interface FgaTestServer {
  server: TestServer;
  grpc: GrpcTestClient;
  /** Calls a registry operation by name over one protocol. */
  call(protocol: Protocol, name: string, input?: Record<string, unknown>, headers?: Record<string, string>): Promise<Outcome>;
  /** Calls over REST (as the super-admin unless told) and expects success. */
  ok(name: string, input?: Record<string, unknown>, headers?: Record<string, string>): Promise<any>;
  close(): Promise<void>;
}

export async function startFgaServer(extraFlags: string[] = [], overrides: AppOverrides = {}): Promise<FgaTestServer> {
  const server = await startServer(extraFlags, overrides);
  const grpc = createGrpcClient(server.ports.grpc!);
  const callers = threeProtocols(server, () => grpc);
  return {
    server,
    grpc,
    call: (protocol, name, input = {}, headers = {}) => callers.call(protocol, name, input, headers),
    ok: (name, input = {}, headers) => callers.over('rest', name, input, headers ?? 'admin'),
    async close() {
      grpc.close();
      await server.close();
    },
  };
}

export interface TestUser {
  user: { id: string };
  /** `user:<id>` */
  subject: string;
  accessToken: string;
  sessionToken: string;
  bearer: Record<string, string>;
  cookie: Record<string, string>;
}

export async function signedInUser(fga: FgaTestServer): Promise<TestUser> {
  const user = await newSignedInUser(fga.server);
  return {
    user: { id: user.userId },
    subject: `user:${user.userId}`,
    accessToken: user.accessToken,
    sessionToken: user.sessionCookie!,
    bearer: user.bearer,
    cookie: { cookie: `cookie_session=${user.sessionCookie}` },
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
