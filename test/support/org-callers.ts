/**
 * Org-scoped operations called as different people over REST, GraphQL or gRPC (docs/operations.md:
 * org-scoped operations are open to the super-admin or to that organization's org-admin role): the
 * super-admin (admin secret), or a signed-in user (bearer access token). `orgWithAdmin` makes an
 * organization and a user holding `service:org_admin` in it; `signedInUser` a user with no organization.
 * Outcomes use one error vocabulary across the protocols, so a test can assert the same refusal on each.
 */
import { before, after } from 'node:test';
import { randomBytes } from 'node:crypto';
import { startServer, type TestServer } from './app.ts';
import { createGrpcClient, type GrpcTestClient } from './grpc-client.ts';
import { threeProtocols } from './three-protocols.ts';
import { signedInUser as newSignedInUser } from './signed-in-user.ts';

export { PROTOCOLS, type Protocol, type Outcome } from './three-protocols.ts';
/** Who calls: the super-admin, a user's access token, or nobody. */
export type As = 'admin' | { bearer: string } | 'anonymous';

export interface SignedInUser {
  userId: string;
  email: string;
  token: string;
}

export function orgCallers(server: () => TestServer, grpc: () => GrpcTestClient) {
  const { call, over, overAll } = threeProtocols(server, grpc);

  /** A new account, signed up and logged in over REST: its id and access token. */
  async function signedInUser(email?: string): Promise<SignedInUser> {
    const user = await newSignedInUser(server(), { email });
    return { userId: user.userId, email: user.email, token: user.accessToken };
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

  return { call, over, overAll, signedInUser, orgWithAdmin, orgAdminCast };
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
