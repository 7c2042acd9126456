/**
 * Helpers of the AuthZEN PDP tests (docs/authzen.md): a server with FGA, a registered client granted the PDP's
 * resource indicator and its client_credentials token, the spec's REST endpoints called over real HTTP as a
 * PEP calls them (no Origin), and the same questions as operations over GraphQL and gRPC.
 */
import assert from 'node:assert/strict';
import { startFgaServer, type FgaTestServer, type Outcome } from './ops-support.ts';
import { adminClient } from '../support/admin-client.ts';

export { PROTOCOLS, kindOf, type Outcome, type Protocol } from './ops-support.ts';

export interface PdpClient {
  clientId: string;
  secret: string;
  token: string;
  bearer: Record<string, string>;
}

export interface RestReply {
  status: number;
  body: any;
  headers: Headers;
}

export interface PdpServer {
  fga: FgaTestServer;
  /** `<issuer>/access/v1`: the resource indicator the PDP accepts. */
  resource: string;
  /** A client granted the PDP, with a token for it. */
  client: PdpClient;
  /** A registered client with allowed_resources of its own, and a token (for itself) of client_credentials. */
  registerClient(allowedResources: string[]): Promise<{ clientId: string; secret: string; id: string }>;
  clientToken(client: { clientId: string; secret: string }, resource?: string): Promise<string>;
  /** POST a JSON body to a spec path (`/access/v1/evaluation`) with the given headers. */
  post(path: string, body: unknown, headers?: Record<string, string>): Promise<RestReply>;
  /** An operation over GraphQL or gRPC with the client's token, unless other headers are given. */
  call(protocol: 'graphql' | 'grpc', name: string, input: Record<string, unknown>, headers?: Record<string, string>): Promise<Outcome>;
  close(): Promise<void>;
}

export async function startPdpServer(): Promise<PdpServer> {
  const fga = await startFgaServer();
  const { server } = fga;
  const resource = `${server.app.deps.config.url!.replace(/\/+$/, '')}/access/v1`;
  const admin = adminClient(server);

  async function registerClient(allowedResources: string[]) {
    const created = await admin.ok('create_client', { name: 'PEP', allowed_scopes: [], allowed_resources: allowedResources });
    return { id: created.client.id as string, clientId: created.client.client_id as string, secret: created.client_secret as string };
  }

  async function clientToken(client: { clientId: string; secret: string }, resourceWanted?: string): Promise<string> {
    const form: Record<string, string> = { grant_type: 'client_credentials' };
    if (resourceWanted) form.resource = resourceWanted;
    const res = await fetch(`${server.baseUrl}/oauth/token`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from(`${client.clientId}:${client.secret}`).toString('base64')}`,
      },
      body: new URLSearchParams(form).toString(),
    });
    const body = await res.json();
    assert.equal(res.status, 200, JSON.stringify(body));
    return body.access_token;
  }

  const registered = await registerClient([resource]);
  const token = await clientToken(registered, resource);
  const client: PdpClient = { ...registered, token, bearer: { authorization: `Bearer ${token}` } };

  return {
    fga,
    resource,
    client,
    registerClient,
    clientToken,
    async post(path, body, headers = client.bearer) {
      const res = await fetch(`${server.baseUrl}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : undefined, headers: res.headers };
    },
    call: (protocol, name, input, headers = client.bearer) => fga.call(protocol, name, input, headers),
    close: () => fga.close(),
  };
}
