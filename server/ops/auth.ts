/**
 * Declarative authentication requirements of operations (architecture.md). Each kind is served by one
 * authenticator function; modules contribute theirs (admin here, user and MFA cookie in the accounts
 * module) and buildApp() assembles the table. A kind without an authenticator is a wiring bug and fails
 * loudly as an internal error rather than letting a caller through.
 */
import type { Caller, OpContext } from '../kernel/context.ts';

/**
 * `user_or_admin`: a user, or a super-admin acting on a user's behalf (the permission operations of
 * specification part 4.1, whose subject rule honours an explicit user for super-admins).
 */
export type AuthKind = 'public' | 'admin' | 'user' | 'user_or_admin' | 'mfa_cookie' | 'user_or_mfa_cookie';

/** Resolves the caller for one requirement, or throws AppError('unauthenticated'). */
export type Authenticator = (ctx: OpContext) => Promise<Caller>;

export type Authenticators = Partial<Record<AuthKind, Authenticator>>;

export const publicAuthenticator: Authenticator = async () => ({ kind: 'anonymous' });

/** One way in: whether the request presents its credentials at all, and how to check them. */
export interface CredentialKind {
  presented(ctx: OpContext): boolean;
  authenticate: Authenticator;
}

/**
 * Tries each kind the request presents, in order; the first that authenticates wins. When none does, the
 * refusal of the first presented kind is answered (a caller with a bad admin secret hears about that), and
 * with nothing presented the last kind's own refusal.
 */
export function firstPresented(...kinds: CredentialKind[]): Authenticator {
  return async (ctx) => {
    let refusal: unknown;
    for (const kind of kinds) {
      if (!kind.presented(ctx)) continue;
      try {
        return await kind.authenticate(ctx);
      } catch (err) {
        refusal ??= err;
      }
    }
    if (refusal !== undefined) throw refusal;
    return kinds[kinds.length - 1]!.authenticate(ctx);
  };
}
