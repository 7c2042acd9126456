/**
 * Declarative authentication requirements of operations (architecture.md). Each kind is served by one
 * authenticator function; modules contribute theirs (admin here, user and MFA cookie in the accounts
 * module) and buildApp() assembles the table. A kind without an authenticator is a wiring bug and fails
 * loudly as an internal error rather than letting a caller through.
 */
import type { Caller, OpContext } from '../kernel/context.ts';

export type AuthKind = 'public' | 'admin' | 'user' | 'mfa_cookie' | 'user_or_mfa_cookie';

/** Resolves the caller for one requirement, or throws AppError('unauthenticated'). */
export type Authenticator = (ctx: OpContext) => Promise<Caller>;

export type Authenticators = Partial<Record<AuthKind, Authenticator>>;

export const publicAuthenticator: Authenticator = async () => ({ kind: 'anonymous' });
