/**
 * Password login as an ordered pipeline of small named steps (node-oidc-provider / Ory Kratos habit): the
 * password strategy's own checks (method, lockout, password), then the one sign-in policy
 * (sign-in-policy.ts), which checks the account, runs the second-factor gate and opens the session.
 */
import type { Static } from '../../ops/schema.ts';
import type { HandlerContext } from '../../ops/define.ts';
import { AppError } from '../../kernel/errors.ts';
import type { UserRow } from '../users/index.ts';
import { toPublicUser, findSignInAccount, rolesForLogin } from '../users/index.ts';
import { lockoutKey } from './password-guard.ts';
import { hashPassword, passwordNeedsRehash, verifyAgainstDummy, verifyPassword } from '../passwords/index.ts';
import { User } from '../users/index.ts';
import { firebaseKeyResolver } from './import/import-hash-keys.ts';
import type { AuthResponse, LoginRequest } from './accounts.schema.ts';
import { DEFAULT_SCOPE } from './complete-login.ts';
import { signIn } from './sign-in-policy.ts';
import { auditNow } from '../audit/index.ts';
import { isStoreUnavailable } from '../../storage/unavailable.ts';

export const INVALID_CREDENTIALS = 'invalid credentials';

export interface LoginState {
  readonly input: Static<typeof LoginRequest>;
  method?: 'basic_auth' | 'mobile_basic_auth';
  user?: UserRow;
  roles?: string[];
  scope?: string[];
  /** Set by a step that ends the flow early (an MFA challenge, for example). */
  response?: Static<typeof AuthResponse>;
}

export type LoginStep = (state: LoginState, ctx: HandlerContext) => Promise<void>;

/**
 * A refused login is audited on its own (the refusal rolls nothing back that could carry it). The account is
 * named only when it exists: what was typed into an unknown email field may be anything, a password included.
 */
async function auditFailure(ctx: HandlerContext, state: LoginState, reason: string, user?: UserRow): Promise<void> {
  await auditNow(ctx, {
    action: 'user.login_failed',
    actor: user ? { type: 'user', id: user.id, email: user.email } : { type: 'anonymous' },
    resourceType: 'user',
    resourceId: user?.id,
    metadata: { reason, login_method: state.method },
  });
}

/** Email login needs --enable-basic-authentication; phone login --enable-mobile-basic-authentication. */
const chooseMethod: LoginStep = async (state, ctx) => {
  const { email, phone_number: phone } = state.input;
  if (!email && !phone) throw AppError.invalid('email or phone_number is required');
  if (email && phone) throw AppError.invalid('give either email or phone_number, not both');
  state.method = email ? 'basic_auth' : 'mobile_basic_auth';
  const { config } = ctx.deps;
  if (state.method === 'basic_auth' && !config.enableBasicAuthentication) {
    throw AppError.precondition('basic authentication is disabled for this instance');
  }
  if (state.method === 'mobile_basic_auth' && !config.enableMobileBasicAuthentication) {
    throw AppError.precondition('mobile basic authentication is disabled for this instance');
  }
};

/**
 * Lockout (OWASP ASVS 2.2.1): at most --login-lockout-threshold failed logins per account in a window, at
 * most 100 an hour (modules/limits/policies.ts). Every attempt spends its point before the password is
 * checked, so concurrent guesses cannot all slip in before the count catches up; a right password gives
 * the point back (checkPassword resets the count). A locked account answers exactly what a wrong password
 * answers, after the same argon2 work, even for the right password: the answer reveals neither the lock
 * nor the password's correctness (ASVS 2.2.1 also: no account enumeration through the lockout).
 */
const checkLockout: LoginStep = async (state, ctx) => {
  try {
    await ctx.deps.limits.consume('login_failure', lockoutKey(state.input));
  } catch (err) {
    if (!(err instanceof AppError) || err.kind !== 'too_many_requests') throw err;
    ctx.deps.metrics.login('locked');
    await verifyAgainstDummy(state.input.password);
    await auditFailure(ctx, state, 'locked');
    throw AppError.unauthenticated(INVALID_CREDENTIALS);
  }
};

/**
 * An unknown user and a wrong password answer the same message after about the same work (docs/errors.md#messages-worth-knowing):
 * the unknown case still runs one argon2 verification against a dummy hash.
 */
const checkPassword: LoginStep = async (state, ctx) => {
  const { password } = state.input;
  const user = await findSignInAccount(ctx.deps.storage, ctx.em, state.input).catch(async (err: unknown) => {
    // No verdict on the password: the point checkLockout spent goes back. Lockout counts failed attempts
    // (OWASP ASVS 2.2.1); without this, a client retrying through a database outage would lock its account
    // for the whole window (docs/deployment.md#when-the-database-is-down).
    if (isStoreUnavailable(err)) await ctx.deps.limits.refund('login_failure', lockoutKey(state.input)).catch(() => undefined);
    throw err;
  });
  if (!user || !user.passwordHash) {
    await verifyAgainstDummy(password);
    ctx.deps.metrics.login('failure');
    await auditFailure(ctx, state, 'unknown_account');
    throw AppError.unauthenticated(INVALID_CREDENTIALS);
  }
  if (!(await verifyPassword(user.passwordHash, password, firebaseKeyResolver(ctx.em, ctx.deps.sealer)))) {
    ctx.deps.metrics.login('failure');
    await auditFailure(ctx, state, 'wrong_password', user);
    throw AppError.unauthenticated(INVALID_CREDENTIALS);
  }
  ctx.deps.metrics.login('success');
  await ctx.deps.limits.reset('login_failure', lockoutKey(state.input));
  await rehashIfOutdated(ctx, user, password);
  state.user = user;
};

/**
 * A hash imported from another system (docs/importing-users.md), or an argon2 one made with other parameters
 * than today's, is replaced with the server's argon2id (OWASP Password Storage Cheat Sheet, "upgrading legacy
 * hashes") once the password proved right. Conditional on the hash it replaces, so a password changed
 * meanwhile is never overwritten.
 */
async function rehashIfOutdated(ctx: HandlerContext, user: UserRow, password: string): Promise<void> {
  const previous = user.passwordHash!;
  if (!passwordNeedsRehash(previous)) return;
  const upgraded = await hashPassword(password);
  await ctx.em.nativeUpdate(User, { id: user.id, passwordHash: previous }, { passwordHash: upgraded });
}

const resolveRolesAndScope: LoginStep = async (state) => {
  state.roles = rolesForLogin(state.user!, state.input.roles);
  state.scope = state.input.scope?.length ? state.input.scope : [...DEFAULT_SCOPE];
};

/**
 * The account checks, the gate and the session, all the policy's (its refusals are audited there). They
 * come only after the password, so the answer reveals nothing to someone without it. The password check
 * above runs outside any transaction: on SQLite's single connection a transaction held across a 10-20 ms
 * argon2 verify would make every login wait for the one before it.
 */
const signInWithPassword: LoginStep = async (state, ctx) => {
  const outcome = await signIn(ctx, {
    strategy: state.method === 'basic_auth' ? 'password' : 'phone_password',
    user: state.user!,
    loginMethod: state.method!,
    roles: state.roles!,
    scope: state.scope!,
    message: 'Logged in successfully',
  });
  state.response = outcome.response;
};

/** The password strategy's own checks, up to the sign-in policy: shared with change_initial_password. */
export const PASSWORD_STEPS: readonly LoginStep[] = [chooseMethod, checkLockout, checkPassword, resolveRolesAndScope];

export const LOGIN_STEPS: readonly LoginStep[] = [...PASSWORD_STEPS, signInWithPassword];

export { signInWithPassword };

export async function runLogin(input: Static<typeof LoginRequest>, ctx: HandlerContext, steps = LOGIN_STEPS): Promise<Static<typeof AuthResponse>> {
  const state: LoginState = { input };
  for (const step of steps) {
    await step(state, ctx);
    if (state.response) return state.response;
  }
  return { message: 'Logged in successfully', user: toPublicUser(state.user!) };
}
