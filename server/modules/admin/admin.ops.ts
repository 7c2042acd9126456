/**
 * Super-admin session operations (docs/operations.md and docs/api-overview.md#authentication) and the three deprecated GraphQL
 * mutations that always fail with the exact messages of docs/errors.md#messages-worth-knowing.
 */
import { defineOperation } from '../../ops/define.ts';
import { s, NoInput, MessageResponse } from '../../ops/schema.ts';
import { AppError } from '../../kernel/errors.ts';
import { AdminMeta, buildAdminMeta } from '../meta/index.ts';
import { orgDiscoveryEnabled } from '../org-sso/index.ts';
import { closeAdminSession, openAdminSession, renewAdminSession } from './admin.service.ts';
import { checkAdminSecret } from './admin-secret-guard.ts';

const AdminLoginRequest = s.object('AdminLoginRequest', { admin_secret: s.string() });

export const adminLoginOp = defineOperation({
  name: 'admin_login',
  admin: true,
  kind: 'mutation',
  description: 'Opens a super-admin session and sets the service-admin cookie',
  input: AdminLoginRequest,
  output: MessageResponse,
  auth: 'public',
  rest: { path: '/v1/admin/login' },
  // Outside a transaction: a failure's audit entry is written at once and must not wait for (or roll back
  // with) one; the session is a single insert. The pipeline audits a success after the handler.
  transaction: false,
  handler: async (input, ctx) => {
    // Limited per address and in total, audited when wrong (admin-secret-guard.ts, OWASP ASVS 2.2.1).
    if (!(await checkAdminSecret(ctx, input.admin_secret, 'login'))) {
      throw AppError.unauthenticated('invalid admin secret');
    }
    await openAdminSession(ctx, ctx.em);
    return { message: 'admin logged in successfully' };
  },
});

export const adminLogoutOp = defineOperation({
  name: 'admin_logout',
  admin: true,
  kind: 'mutation',
  description: 'Ends the super-admin session and clears its cookie',
  input: NoInput,
  output: MessageResponse,
  auth: 'admin',
  rest: { path: '/v1/admin/logout' },
  handler: async (_input, ctx) => {
    await closeAdminSession(ctx, ctx.em);
    return { message: 'admin logged out successfully' };
  },
});

export const adminSessionOp = defineOperation({
  name: 'admin_session',
  admin: true,
  kind: 'query',
  description: 'Confirms the super-admin credentials and renews the admin cookie',
  input: NoInput,
  output: MessageResponse,
  auth: 'admin',
  transaction: true,
  rest: { method: 'GET', path: '/v1/admin/session' },
  handler: async (_input, ctx) => {
    // A cookie session slides forward; the header caller gets a cookie too, as the released server does.
    await renewAdminSession(ctx, ctx.em);
    return { message: 'admin session refreshed successfully' };
  },
});

export const adminMetaOp = defineOperation({
  name: 'admin_meta',
  admin: true,
  kind: 'query',
  description: 'Meta plus the role configuration',
  input: NoInput,
  output: AdminMeta,
  auth: 'admin',
  rest: { method: 'GET', path: '/v1/admin/meta' },
  handler: async (_input, ctx) => buildAdminMeta(ctx.deps.config, ctx.deps.version, await orgDiscoveryEnabled(ctx.deps)),
});

function deprecatedOp(name: string, inputName: string, message: string) {
  return defineOperation({
    name,
    admin: true,
    kind: 'mutation',
    description: `Deprecated: always fails (${message})`,
    // Any argument shape is accepted so callers of the old schema see the deprecation, not a schema error.
    input: s.object(inputName, { params: s.optional(s.map()) }),
    output: MessageResponse,
    auth: 'public',
    graphql: { flatArgs: true },
    rest: false,
    grpc: false,
    transaction: false,
    handler: async () => {
      throw AppError.precondition(message);
    },
  });
}

export const adminOperations = [
  adminLoginOp,
  adminLogoutOp,
  adminSessionOp,
  adminMetaOp,
  deprecatedOp('admin_signup', 'AdminSignupRequest', 'deprecated. please configure admin secret via cli args'),
  deprecatedOp('update_env', 'UpdateEnvRequest', 'deprecated. please configure env via cli args'),
  deprecatedOp('generate_jwt_keys', 'GenerateJwtKeysRequest', 'deprecated. please configure jwt keys via cli args'),
];
