/**
 * change_initial_password: the first sign-in of an account an administrator created with an initial password
 * (create_user). A password someone else chose is known to them too, so it must not open a session (OWASP ASVS
 * 2.1.x; NIST SP 800-63B 5.1.1.2): `login` with it answers FAILED_PRECONDITION "password change required"
 * (sign-in-policy.ts) and issues nothing. The client then sends the same identifier and password with a new
 * password here; this runs the password strategy's own checks (the login lockout and the same answers for an
 * unknown account and a wrong password, login-flow.ts), the account checks of the sign-in policy, replaces
 * the password, and signs in through the one policy, answering exactly what `login` answers (tokens, or a
 * second-factor step). The AuthResponse and LoginRequest shapes of the client SDK stay as they are.
 */
import { defineOperation } from '../../ops/define.ts';
import { s } from '../../ops/schema.ts';
import { AppError } from '../../kernel/errors.ts';
import { User } from '../users/index.ts';
import { checkPasswordPolicy, hashPassword } from '../passwords/index.ts';
import { personalWordsOfUser } from './personal-words.ts';
import { revokeAllForUser } from '../tokens/index.ts';
import { audit } from '../audit/index.ts';
import { AuthResponse } from './accounts.schema.ts';
import { PASSWORD_STEPS, runLogin, signInWithPassword, type LoginStep } from './login-flow.ts';
import { assertMaySignIn } from './sign-in-policy.ts';

export const NO_PASSWORD_CHANGE_PENDING = 'no password change is pending for this account: sign in with login';
export const SAME_PASSWORD_MESSAGE = 'the new password must differ from the password the administrator set';

const optionalString = () => s.optional(s.string());

export const ChangeInitialPasswordRequest = s.object('ChangeInitialPasswordRequest', {
  email: optionalString(),
  phone_number: optionalString(),
  password: s.string({ description: 'the initial password the administrator set' }),
  new_password: s.string(),
  confirm_new_password: s.string(),
  roles: s.optional(s.list(s.string())),
  scope: s.optional(s.list(s.string())),
  state: optionalString(),
});

/**
 * Replaces the initial password once: a conditional update on the pending mark, so of two requests with the
 * same initial password only one sets its new password. Every session and token of the account ends (there
 * should be none; one opened by another way in ends all the same).
 */
function replaceInitialPassword(newPassword: string, confirmation: string): LoginStep {
  return async (state, ctx) => {
    const user = state.user!;
    const { config, clock } = ctx.deps;
    assertMaySignIn(ctx, user, { strategy: state.method === 'basic_auth' ? 'password' : 'phone_password', loginMethod: state.method! });
    if (!user.passwordChangeRequiredAt) throw AppError.precondition(NO_PASSWORD_CHANGE_PENDING);
    await checkPasswordPolicy(config, newPassword, confirmation, personalWordsOfUser(user));
    if (newPassword === state.input.password) throw AppError.invalid(SAME_PASSWORD_MESSAGE);
    const passwordHash = await hashPassword(newPassword);
    const now = clock.now();
    await ctx.em.transactional(async (tx) => {
      const replaced = await tx.nativeUpdate(
        User,
        { id: user.id, passwordChangeRequiredAt: { $ne: null } },
        { passwordHash, passwordChangeRequiredAt: null, updatedAt: now },
      );
      if (replaced !== 1) throw AppError.precondition(NO_PASSWORD_CHANGE_PENDING);
      await revokeAllForUser(tx, clock, user.id);
      await audit({ ...ctx, em: tx }, {
        action: 'user.password_changed',
        actor: { type: 'user', id: user.id, email: user.email },
        resourceType: 'user',
        resourceId: user.id,
        metadata: { via: 'initial_password' },
      });
    });
    // The row is written; the loaded copy follows, so the sign-in policy sees the password as the holder's.
    user.passwordHash = passwordHash;
    user.passwordChangeRequiredAt = null;
    user.updatedAt = now;
  };
}

export const changeInitialPasswordOp = defineOperation({
  name: 'change_initial_password',
  admin: false,
  kind: 'mutation',
  description:
    'Replaces the initial password an administrator set (create_user) and signs in: the next step after login answered ' +
    'FAILED_PRECONDITION "password change required". Takes the login fields with new_password and confirm_new_password; ' +
    'answers as login does (tokens, or a second-factor step)',
  input: ChangeInitialPasswordRequest,
  output: AuthResponse,
  auth: 'public',
  // As login: argon2 runs outside any transaction, the writes open their own (login-flow.ts).
  transaction: false,
  handler: async (input, ctx) => {
    const login = { email: input.email, phone_number: input.phone_number, password: input.password, roles: input.roles, scope: input.scope, state: input.state };
    return runLogin(login, ctx, [...PASSWORD_STEPS, replaceInitialPassword(input.new_password, input.confirm_new_password), signInWithPassword]);
  },
});

export const initialPasswordOperations = [changeInitialPasswordOp];
