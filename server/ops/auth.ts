/**
 * Declarative authentication requirements of operations (docs/architecture.md#one-operation-three-protocols). Each kind is served by one
 * authenticator function; modules contribute theirs (admin here, user and MFA cookie in the accounts
 * module) and buildApp() assembles the table. A kind without an authenticator is a wiring bug and fails
 * loudly as an internal error rather than letting a caller through.
 */
import type { OpContext } from '../kernel/context.ts';
import type { Authenticator } from '../kernel/authenticators.ts';

// Declared in kernel/ because Deps carries the table, and the kernel imports nothing of the app
// (docs/architecture.md#inside-server).
export type { AuthKind, Authenticator, Authenticators } from '../kernel/authenticators.ts';

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
