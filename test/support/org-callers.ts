/**
 * Org-scoped operations called as different people over REST, GraphQL or gRPC (specification part 4.2:
 * org-scoped operations are open to the super-admin or to that organization's org-admin role): the
 * super-admin (admin secret), or a signed-in user (bearer access token). `orgWithAdmin` makes an
 * organization and a user holding `service:org_admin` in it; `signedInUser` a user with no organization.
 * Outcomes use one error vocabulary across the protocols, so a test can assert the same refusal on each.
 */
import { before, after } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { ADMIN_SECRET, startServer, type TestServer } from './app.ts';
import { createGrpcClient, type GrpcFailure, type GrpcTestClient } from './grpc-client.ts';
import { registry } from '../../server/ops/registry.ts';
import { buildGraphqlSchema, graphqlRequestFor } from '../../server/transports/graphql/index.ts';
import { dropNulls } from '../../server/ops/validate.ts';

export type Protocol = 'rest' | 'graphql' | 'grpc';
export const PROTOCOLS: readonly Protocol[] = ['rest', 'graphql', 'grpc'];
export type Outcome = { ok: any } | { error: string; message: string };
/** Who calls: the super-admin, a user's access token, or nobody. */
export type As = 'admin' | { bearer: string } | 'anonymous';

export interface SignedInUser {
  userId: string;
  email: string;
  token: string;
}

const PASSWORD = 'Str0ng!org-member-pass';
// gRPC status codes (https://grpc.github.io/grpc/core/md_doc_statuscodes.html) and HTTP statuses, as kinds.
const GRPC_KIND: Record<number, string> = { 3: 'invalid_argument', 5: 'not_found', 6: 'already_exists', 7: 'permission_denied', 8: 'too_many_requests', 9: 'failed_precondition', 16: 'unauthenticated' };
const HTTP_KIND: Record<number, string> = { 400: 'invalid_argument', 401: 'unauthenticated', 403: 'permission_denied', 404: 'not_found', 409: 'already_exists', 429: 'too_many_requests' };
let graphqlSchema: ReturnType<typeof buildGraphqlSchema> | undefined;

function headersFor(as: As): Record<string, string> {
  if (as === 'admin') return { 'x-service-admin-secret': ADMIN_SECRET };
  if (as === 'anonymous') return {};
  return { authorization: `Bearer ${as.bearer}` };
}

export function orgCallers(server: () => TestServer, grpc: () => GrpcTestClient) {
  async function call(protocol: Protocol, name: string, input: Record<string, unknown>, as: As = 'admin'): Promise<Outcome> {
    const op = registry.byName(name);
    assert.ok(op, `no operation ${name}`);
    const base = server().baseUrl;
    const headers = headersFor(as);
    if (protocol === 'rest') {
      const res = await fetch(`${base}${op.restRoute!.path}`, {
        method: 'POST',
        headers: { ...headers, origin: base, 'content-type': 'application/json' },
        body: JSON.stringify(input),
      });
      const body = await res.json();
      if (res.status === 200) return { ok: body };
      // failed_precondition shares 400 with invalid_argument over REST; the body's code tells them apart.
      const kind = typeof body.code === 'string' && body.code !== 'resource_exhausted' ? body.code : (HTTP_KIND[res.status] ?? `http ${res.status}`);
      return { error: kind, message: body.message ?? body.error ?? JSON.stringify(body) };
    }
    if (protocol === 'graphql') {
      graphqlSchema ??= buildGraphqlSchema(registry.all);
      const res = await fetch(`${base}/graphql`, {
        method: 'POST',
        headers: { ...headers, origin: base, 'content-type': 'application/json' },
        body: JSON.stringify(graphqlRequestFor(graphqlSchema, op, input)),
      });
      const body = await res.json();
      if (!body.errors) return { ok: dropNulls(body.data[op.graphqlName]) };
      const error = body.errors[0];
      return { error: String(error.extensions?.code ?? '').toLowerCase(), message: error.message };
    }
    try {
      const { response } = await grpc().call(op.grpcService, op.grpcMethod!, input, headers);
      return { ok: dropNulls(response) };
    } catch (err) {
      const failure = err as GrpcFailure;
      return { error: GRPC_KIND[failure.code] ?? `grpc ${failure.code}`, message: failure.details };
    }
  }

  async function over(protocol: Protocol, name: string, input: Record<string, unknown>, as: As = 'admin'): Promise<any> {
    const outcome = await call(protocol, name, input, as);
    assert.ok('ok' in outcome, `${protocol} ${name}: ${JSON.stringify(outcome)}`);
    return outcome.ok;
  }

  /** A new account, signed up and logged in over REST: its id and access token. */
  async function signedInUser(email = `u${randomBytes(5).toString('hex')}@example.com`): Promise<SignedInUser> {
    const base = server().baseUrl;
    const post = async (path: string, body: unknown) => {
      const res = await fetch(base + path, { method: 'POST', headers: { origin: base, 'content-type': 'application/json' }, body: JSON.stringify(body) });
      return { status: res.status, body: await res.json() };
    };
    const signup = await post('/v1/signup', { email, password: PASSWORD, confirm_password: PASSWORD });
    assert.equal(signup.status, 200, JSON.stringify(signup.body));
    const login = await post('/v1/login', { email, password: PASSWORD });
    assert.equal(login.status, 200, JSON.stringify(login.body));
    assert.ok(login.body.access_token, 'login answers an access token');
    return { userId: login.body.user.id, email, token: login.body.access_token };
  }

  /** An organization (made by the super-admin) and a user who is its org-admin. */
  async function orgWithAdmin(name = `org-${randomBytes(4).toString('hex')}`): Promise<OrgWithAdmin> {
    const org = await over('rest', 'create_organization', { name });
    const admin = await signedInUser();
    await over('rest', 'add_org_member', { org_id: org.id, user_id: admin.userId, roles: ['service:org_admin'] });
    return { orgId: org.id, name, admin };
  }

  /**
   * The people of the org-admin rule: an organization (`home`) with its org-admin and a plain member holding
   * `editor`, another organization with its own org-admin, and a signed-in outsider.
   */
  async function orgAdminCast(prefix = `cast-${randomBytes(3).toString('hex')}`): Promise<OrgAdminCast> {
    const home = await orgWithAdmin(`${prefix}-home`);
    const other = await orgWithAdmin(`${prefix}-elsewhere`);
    const outsider = await signedInUser();
    const member = await signedInUser();
    await over('rest', 'add_org_member', { org_id: home.orgId, user_id: member.userId, roles: ['editor'] });
    return { home, other, outsider, member };
  }

  return { call, over, signedInUser, orgWithAdmin, orgAdminCast };
}

export interface OrgWithAdmin {
  orgId: string;
  name: string;
  admin: SignedInUser;
}

export interface OrgAdminCast {
  home: OrgWithAdmin;
  other: OrgWithAdmin;
  outsider: SignedInUser;
  member: SignedInUser;
}

/**
 * A server with a gRPC client for the suite it is called in (its own before and after hooks), and the
 * callers over it. `flags` may be a function, read in the hook, for flags known only once an earlier hook
 * ran (a loopback DNS server's address). `server()` is valid inside tests.
 */
export function orgCallersOnServer(flags: string[] | (() => string[]) = [], options: Parameters<typeof startServer>[1] = {}) {
  let server: TestServer;
  let grpc: GrpcTestClient;
  before(async () => {
    server = await startServer(typeof flags === 'function' ? flags() : flags, options);
    grpc = createGrpcClient(server.ports.grpc!);
  });
  after(async () => {
    grpc?.close();
    await server?.close();
  });
  return { ...orgCallers(() => server, () => grpc), server: () => server, grpc: () => grpc };
}
