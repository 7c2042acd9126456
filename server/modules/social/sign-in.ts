/**
 * Who a social sign-in signs in (OpenID Connect Core 5.7): the one federated find-link-create rule
 * (accounts/federated-account.ts) with the provider as upstream. The provider vouches for an address when it
 * asserts email_verified; it is never authoritative for a domain, so an existing account is linked only when
 * this server proved its address too. A new account needs --enable-signup. Then the one sign-in policy
 * (accounts/sign-in-policy.ts). Events: user.created and user.signup for a new account, user.login always
 * (docs/events.md).
 */
import type { HandlerContext } from '../../ops/define.ts';
import type { SocialProvider } from '../../config/flags.ts';
import { AppError } from '../../kernel/errors.ts';
import { normaliseEmail, rolesForLogin, rolesForSignup, type UserRow } from '../users/index.ts';
import { createAccount, resolveFederatedAccount, type UpstreamLinks, SignInRefused, signIn } from '../accounts/index.ts';
import type { AuthResponse } from '../accounts/index.ts';
import type { Static } from '../../ops/schema.ts';
import { SocialIdentity } from './social.entities.ts';
import type { UpstreamIdentity } from './profiles.ts';

export { SignInRefused };

export interface SocialLogin {
  provider: SocialProvider;
  identity: UpstreamIdentity;
  /** Roles the application asked for (empty: the defaults for a new account, all held for an existing one). */
  roles: string[];
  scope: string[];
}

const MAX_SUBJECT = 255;

function linksOf(ctx: HandlerContext, provider: string, subject: string): UpstreamLinks {
  const id = `${provider}:${subject}`;
  return {
    linkedUserId: async () => (await ctx.em.findOne(SocialIdentity, { id }))?.userId,
    dropLink: async () => void (await ctx.em.nativeDelete(SocialIdentity, { id })),
    link: (userId) => void ctx.em.create(SocialIdentity, { id, provider, subject, userId, createdAt: ctx.deps.clock.now() }),
  };
}

function withSignupMethod(user: UserRow, provider: string, now: Date): void {
  const methods = user.signupMethods.split(',').filter(Boolean);
  if (methods.includes(provider)) return;
  user.signupMethods = [...methods, provider].join(',');
  user.updatedAt = now;
}

async function createFor(ctx: HandlerContext, login: SocialLogin, email: string): Promise<UserRow> {
  const { config, clock } = ctx.deps;
  if (!config.enableSignup) {
    throw new SignInRefused(403, 'Sign-up is closed', ['There is no account for this sign-in, and new accounts cannot be created here.']);
  }
  const { identity } = login;
  return createAccount(ctx, {
    email,
    signupMethods: [login.provider],
    roles: rolesForSignup(config, login.roles),
    givenName: identity.givenName,
    familyName: identity.familyName,
    nickname: identity.nickname,
    preferredUsername: identity.preferredUsername,
    picture: identity.picture,
    ...(identity.emailVerified ? { emailVerifiedAt: clock.now(), emailVerifiedVia: 'provider' as const } : {}),
  });
}

export interface SocialSignInResult {
  user: UserRow;
  /** The MFA gate's answer when the sign-in waits for a second factor (the `mfa` cookie is set). */
  gate?: Static<typeof AuthResponse>;
}

/** Must run inside a transaction (issueSession's rule): the link, the account and the session commit together. */
export async function completeSocialSignIn(ctx: HandlerContext, login: SocialLogin): Promise<SocialSignInResult> {
  if (login.identity.subject.length > MAX_SUBJECT) throw new SignInRefused(502, 'Sign-in failed', ['The provider answered with an identity this server cannot use.']);
  const { identity, provider } = login;
  const { user, created } = await resolveFederatedAccount(ctx, {
    upstreamName: provider,
    links: linksOf(ctx, provider, identity.subject),
    email: identity.email ? normaliseEmail(identity.email) : undefined,
    upstreamProvesEmail: Boolean(identity.emailVerified),
    authoritativeForDomain: false,
    linkRefused: () => new SignInRefused(409, 'Sign in with your password first', [
      `An account with this email address already exists, and ${provider} could not be linked to it automatically because the address has not been proven on both sides.`,
      'Sign in the way you usually do (with your password or a sign-in link), verify your email address, and then try again.',
    ]),
    createAccount: (email) => createFor(ctx, login, email),
    onLinked: (existing) => withSignupMethod(existing, provider, ctx.deps.clock.now()),
  });
  let roles: string[];
  try {
    roles = created ? [...user.roles] : rolesForLogin(user, login.roles);
  } catch (err) {
    if (err instanceof AppError) throw new SignInRefused(403, 'Roles not allowed', [`${err.message}.`]);
    throw err;
  }
  // The provider's word is a first factor like a password: the sign-in policy decides the rest.
  const outcome = await signIn(ctx, { strategy: 'social', user, loginMethod: provider, roles, scope: login.scope, message: 'Logged in successfully', signup: created });
  return outcome.gated ? { user, gate: outcome.response } : { user };
}
