/**
 * The authenticator table Deps carries, declared here so that the kernel imports nothing of the app
 * (docs/architecture.md#inside-server). ops/auth.ts re-exports these types with the declarative requirement
 * kinds of operations; modules implement the authenticators and buildApp() assembles the table.
 */
import type { Caller, OpContext } from './context.ts';

/**
 * `user_or_admin`: a user, or a super-admin acting on a user's behalf (the permission operations of
 * docs/operations.md, whose subject rule honours an explicit user for super-admins). `pdp_client`: a registered
 * client's client_credentials token for the AuthZEN PDP (docs/authzen.md#authentication).
 */
export type AuthKind = 'public' | 'admin' | 'user' | 'user_or_admin' | 'mfa_cookie' | 'user_or_mfa_cookie' | 'pdp_client';

/** Resolves the caller for one requirement, or throws AppError('unauthenticated'). */
export type Authenticator = (ctx: OpContext) => Promise<Caller>;

export type Authenticators = Partial<Record<AuthKind, Authenticator>>;
