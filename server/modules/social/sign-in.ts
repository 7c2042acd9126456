/**
 * Who a social sign-in signs in (specification part 4.3): the account already linked
 * to the provider's subject; else an existing account with the same email, linked only when both sides
 * proved the address (the upstream asserts email_verified, and the local account's address was proven by a
 * link, a reset, an administrator or a provider: users/email-proof.ts). Linking on anything weaker lets
 * whoever registered the victim's address first, with verification off or by an email change, take over
 * the victim's later sign-in (pre-account hijacking; OpenID Connect Core 5.7). Else a new account, when
 * --enable-signup allows. Events: user.created and user.signup for a new account, user.login always
 * (reference.md "Events").
 */
import type { HandlerContext } from '../../ops/define.ts';
import type { SocialProvider } from '../../config/flags.ts';
import { AppError } from '../../kernel/errors.ts';
import {
  emailProvenForLinking,
  findUserByEmail,
  findUserById,
  normaliseEmail,
  rolesForLogin,
  rolesForSignup,
  toPublicUser,
  type UserRow,
} from '../users/index.ts';
import { createAccount } from '../accounts/create-account.ts';
import { completeLogin } from '../accounts/complete-login.ts';
import { secondFactorChallenge } from '../accounts/mfa-gate.ts';
import type { AuthResponse } from '../accounts/accounts.schema.ts';
import { recordEvent } from '../events/index.ts';
import type { Static } from '../../ops/schema.ts';
import { SocialIdentity } from './social.entities.ts';
import type { UpstreamIdentity } from './profiles.ts';

/** A refusal shown to the person as a page: the status and sentences are safe to display. */
export class SignInRefused extends Error {
  readonly status: number;
  readonly heading: string;
  readonly paragraphs: readonly string[];

  constructor(status: number, heading: string, paragraphs: readonly string[]) {
    super(heading);
    this.status = status;
    this.heading = heading;
    this.paragraphs = paragraphs;
  }
}

export interface SocialLogin {
  provider: SocialProvider;
  identity: UpstreamIdentity;
  /** Roles the application asked for (empty: the defaults for a new account, all held for an existing one). */
  roles: string[];
  scope: string[];
}

const MAX_SUBJECT = 255;

function identityKey(provider: string, subject: string): string {
  return `${provider}:${subject}`;
}

function linkIdentity(ctx: HandlerContext, provider: string, subject: string, userId: string): void {
  ctx.em.create(SocialIdentity, { id: identityKey(provider, subject), provider, subject, userId, createdAt: ctx.deps.clock.now() });
}

function withSignupMethod(user: UserRow, provider: string, now: Date): void {
  const methods = user.signupMethods.split(',').filter(Boolean);
  if (methods.includes(provider)) return;
  user.signupMethods = [...methods, provider].join(',');
  user.updatedAt = now;
}

const deactivated = () => new SignInRefused(403, 'This account is not active', ['The account for this sign-in has been deactivated.']);

/** The linked account, if the link still names a live one; a link whose user was deleted is dropped. */
async function linkedUser(ctx: HandlerContext, login: SocialLogin): Promise<UserRow | undefined> {
  const key = identityKey(login.provider, login.identity.subject);
  const link = await ctx.em.findOne(SocialIdentity, { id: key });
  if (!link) return undefined;
  const user = await findUserById(ctx.em, link.userId, { includeDeactivated: true });
  if (!user) {
    await ctx.em.nativeDelete(SocialIdentity, { id: key });
    return undefined;
  }
  if (user.deactivatedAt) throw deactivated();
  return user;
}

async function linkByEmail(ctx: HandlerContext, login: SocialLogin, email: string): Promise<UserRow | undefined> {
  const existing = await findUserByEmail(ctx.em, email, { includeDeactivated: true });
  if (!existing) return undefined;
  if (existing.deactivatedAt) throw deactivated();
  if (!login.identity.emailVerified || !emailProvenForLinking(existing)) {
    throw new SignInRefused(409, 'Sign in with your password first', [
      `An account with this email address already exists, and ${login.provider} could not be linked to it automatically because the address has not been proven on both sides.`,
      'Sign in the way you usually do (with your password or a sign-in link), verify your email address, and then try again.',
    ]);
  }
  linkIdentity(ctx, login.provider, login.identity.subject, existing.id);
  withSignupMethod(existing, login.provider, ctx.deps.clock.now());
  return existing;
}

async function createFor(ctx: HandlerContext, login: SocialLogin, email: string): Promise<UserRow> {
  const { config, clock } = ctx.deps;
  if (!config.enableSignup) {
    throw new SignInRefused(403, 'Sign-up is closed', ['There is no account for this sign-in, and new accounts cannot be created here.']);
  }
  const { identity } = login;
  const user = await createAccount(ctx, {
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
  linkIdentity(ctx, login.provider, identity.subject, user.id);
  return user;
}

/** Must run inside a transaction (issueSession's rule): the link, the account and the session commit together. */
export interface SocialSignInResult {
  user: UserRow;
  /** The MFA gate's answer when the sign-in waits for a second factor (the `mfa` cookie is set). */
  gate?: Static<typeof AuthResponse>;
}

export async function completeSocialSignIn(ctx: HandlerContext, login: SocialLogin): Promise<SocialSignInResult> {
  if (login.identity.subject.length > MAX_SUBJECT) throw new SignInRefused(502, 'Sign-in failed', ['The provider answered with an identity this server cannot use.']);
  let user = await linkedUser(ctx, login);
  let created = false;
  if (!user) {
    const email = login.identity.email ? normaliseEmail(login.identity.email) : undefined;
    if (!email) {
      throw new SignInRefused(400, 'No email address', [`${login.provider} did not share an email address, and an account here needs one.`]);
    }
    user = await linkByEmail(ctx, login, email);
    if (!user) {
      user = await createFor(ctx, login, email);
      created = true;
    }
  }
  if (user.revokedAt) throw new SignInRefused(403, 'Access revoked', ['Access for this account has been revoked.']);
  let roles: string[];
  try {
    roles = created ? [...user.roles] : rolesForLogin(user, login.roles);
  } catch (err) {
    if (err instanceof AppError) throw new SignInRefused(403, 'Roles not allowed', [`${err.message}.`]);
    throw err;
  }
  // The provider's word is a first factor like a password: a user with a second factor, or one the instance
  // or the user asks for, passes the MFA gate before any session exists (accounts/mfa-gate.ts).
  const gate = await secondFactorChallenge(ctx, user, { roles, scope: login.scope, loginMethod: login.provider });
  if (gate) {
    if (created) recordEvent(ctx.em, 'user.signup', { user: toPublicUser(user), auth_recipe: login.provider }, ctx.deps.clock);
    return { user, gate };
  }
  await completeLogin(ctx, user, {
    roles,
    scope: login.scope,
    loginMethod: login.provider,
    message: 'Logged in successfully',
    events: created ? ['user.signup'] : [],
  });
  return { user };
}
