/**
 * The super-admin as the tests call it: POST /v1/admin/<operation> with the admin secret (`call` answers
 * status and body, `ok` asserts 200 and answers the body), and the same operation over any protocol
 * (`over`, through three-protocols.ts). The secret and origin can be another server's, for an executable
 * started with its own flags.
 */
import assert from 'node:assert/strict';
import { ADMIN_SECRET } from './app.ts';
import { originOf, threeProtocols, type Protocol, type Reachable } from './three-protocols.ts';

export { ADMIN_HEADERS } from './three-protocols.ts';

export interface AdminReply {
  status: number;
  body: any;
}

export interface AdminClientOptions {
  secret?: string;
  /** The Origin header; the server's canonical --url by default (three-protocols.ts originOf). */
  origin?: string;
}

export function adminClient(server: Reachable | (() => Reachable), options: AdminClientOptions = {}) {
  const serverNow = typeof server === 'function' ? server : () => server;
  const headers = { 'x-service-admin-secret': options.secret ?? ADMIN_SECRET };
  const protocols = threeProtocols(server);

  async function call(name: string, input: unknown = {}): Promise<AdminReply> {
    const server = serverNow();
    const res = await fetch(`${server.baseUrl}/v1/admin/${name}`, {
      method: 'POST',
      headers: { ...headers, origin: options.origin ?? originOf(server), 'content-type': 'application/json' },
      body: JSON.stringify(input),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  }

  async function ok(name: string, input: unknown = {}): Promise<any> {
    const reply = await call(name, input);
    assert.equal(reply.status, 200, `${name}: ${JSON.stringify(reply.body)}`);
    return reply.body;
  }

  return {
    headers,
    call,
    ok,
    over: (protocol: Protocol, name: string, input: Record<string, unknown> = {}) => protocols.over(protocol, name, input, headers),
    /** Ends the gRPC client a first `over('grpc', ...)` opened; REST calls hold nothing open. */
    close: () => protocols.close(),
  };
}

export type AdminClient = ReturnType<typeof adminClient>;
