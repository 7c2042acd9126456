/**
 * Who an organization SSO sign-in signs in, and into what (reference.md "Events": SSO callbacks fire signup
 * or login):
 *
 * 1. The account already linked to (connection, sub): OpenID Connect Core 5.7, sub under its issuer is the
 *    one stable identifier; for SAML the NameID with its format (SAML 2.0 Core 8.3.7, saml-identity.ts).
 *    The rule is the same for both kinds of connection.
 * 2. Else an existing account with the same email, linked only when the IdP asserts email_verified AND the
 *    address's domain is verified for this very organization (org-domains: the organization proved it owns
 *    the domain, which is what makes its IdP authoritative for the addresses in it). Anything weaker would let
 *    an org-admin's IdP claim any address and take over its account (pre-account hijacking). SAML has no
 *    email_verified claim: there the domain being verified for the organization is the whole test.
 * 3. Else a new account, even with --enable-signup off (the IdP is a source an administrator configured, and
 *    an organization's people arriving through it is the point of SSO), but only under the same rule as
 *    linking (2). An account made for an address the organization has not proven would be a pre-account
 *    hijack: whoever owns the address later resets the password and uses the account, while the org's IdP,
 *    which any org-admin can point anywhere, still signs into it through the link.
 *
 * The user becomes a member of the organization (no org roles; an existing membership keeps its roles). The
 * sign-in then ends as social sign-in does: the MFA gate, then the session (accounts/complete-login.ts).
 */
import type { HandlerContext } from '../../ops/define.ts';
import type { Static } from '../../ops/schema.ts';
import { randomUUID } from 'node:crypto';
import { AppError } from '../../kernel/errors.ts';
import { findUserByEmail, findUserById, normaliseEmail, rolesForLogin, rolesForSignup, toPublicUser, type UserRow } from '../users/index.ts';
import { createAccount } from '../accounts/create-account.ts';
import { completeLogin } from '../accounts/complete-login.ts';
import { secondFactorChallenge } from '../accounts/mfa-gate.ts';
import type { AuthResponse } from '../accounts/accounts.schema.ts';
import { recordEvent } from '../events/index.ts';
import { OrgMember, type OrganizationRow } from '../organizations/index.ts';
import { emailDomain, verifiedOrganizationForDomain } from '../org-domains/index.ts';
import { SignInRefused, type UpstreamIdentity } from '../social/index.ts';
import { orgSsoLoginMethod } from '../tokens/index.ts';
import { OrgSsoIdentity } from './org-sso.entities.ts';

/** Recorded in the account's signup methods. */
export const SSO_SIGNUP_METHOD = 'org_sso';

/** What either kind of connection (OIDC or SAML) contributes to the rule. */
export interface SsoConnection {
  id: string;
  allowedEmailDomains: string[];
}

/**
 * The person the IdP vouches for. `subject` is the stable identifier under the connection (OIDC `sub`; SAML
 * NameID with its format), absent when the IdP gives none that lasts (a SAML transient NameID): then no
 * link is kept and each sign-in goes by the email rule. `emailVerified` is the IdP's claim that the address
 * is the person's; it counts only in a domain the organization verified (idpAuthoritativeFor). Otherwise the
 * shape social sign-in reads from its providers.
 */
export type SsoIdentity = Omit<UpstreamIdentity, 'subject'> & { subject?: string };

export interface SsoLogin {
  org: OrganizationRow;
  connection: SsoConnection;
  identity: SsoIdentity;
  scope: string[];
}

export interface SsoSignInResult {
  user: UserRow;
  /** The MFA gate's answer when the sign-in waits for a second factor (the `mfa` cookie is set). */
  gate?: Static<typeof AuthResponse>;
}

const deactivated = () => new SignInRefused(403, 'This account is not active', ['The account for this sign-in has been deactivated.']);

function identityKey(connectionId: string, subject: string): string {
  return `${connectionId}:${subject}`;
}

function link(ctx: HandlerContext, login: SsoLogin, userId: string): void {
  if (login.identity.subject === undefined) return;
  ctx.em.create(OrgSsoIdentity, {
    id: identityKey(login.connection.id, login.identity.subject),
    orgId: login.org.id,
    connectionId: login.connection.id,
    subject: login.identity.subject,
    userId,
    createdAt: ctx.deps.clock.now(),
  });
}

async function linkedUser(ctx: HandlerContext, login: SsoLogin): Promise<UserRow | undefined> {
  if (login.identity.subject === undefined) return undefined;
  const key = identityKey(login.connection.id, login.identity.subject);
  const found = await ctx.em.findOne(OrgSsoIdentity, { id: key });
  if (!found) return undefined;
  const user = await findUserById(ctx.em, found.userId, { includeDeactivated: true });
  if (!user) {
    // The account was deleted: the link goes, and this sign-in continues as a first one.
    await ctx.em.nativeDelete(OrgSsoIdentity, { id: key });
    return undefined;
  }
  if (user.deactivatedAt) throw deactivated();
  return user;
}

/** True when the IdP's word about `email` counts: asserted verified, in a domain this organization verified. */
async function idpAuthoritativeFor(ctx: HandlerContext, login: SsoLogin, email: string): Promise<boolean> {
  if (!login.identity.emailVerified) return false;
  const domain = emailDomain(email);
  if (!domain) return false;
  const owner = await verifiedOrganizationForDomain(ctx.em, domain);
  return owner?.id === login.org.id;
}

async function linkByEmail(ctx: HandlerContext, login: SsoLogin, email: string, authoritative: boolean): Promise<UserRow | undefined> {
  const existing = await findUserByEmail(ctx.em, email, { includeDeactivated: true });
  if (!existing) return undefined;
  if (existing.deactivatedAt) throw deactivated();
  if (!authoritative) {
    throw new SignInRefused(409, 'Sign in with your password first', [
      `An account with this email address already exists, and ${login.org.displayName}'s sign-in could not be linked to it automatically: the address is not in a domain the organization has verified, or the organization's sign-in did not confirm it.`,
      'Sign in the way you usually do, or ask the organization\'s administrator.',
    ]);
  }
  link(ctx, login, existing.id);
  return existing;
}

async function createFor(ctx: HandlerContext, login: SsoLogin, email: string, authoritative: boolean): Promise<UserRow> {
  if (!authoritative) {
    throw new SignInRefused(403, 'Address not in the organization', [
      `${login.org.displayName}'s sign-in can create accounts only for confirmed addresses in the domains the organization has verified.`,
      "Ask the organization's administrator to verify the domain, or to have the sign-in confirm the address.",
    ]);
  }
  const { identity } = login;
  const user = await createAccount(ctx, {
    email,
    signupMethods: [SSO_SIGNUP_METHOD],
    roles: rolesForSignup(ctx.deps.config, []),
    givenName: identity.givenName,
    familyName: identity.familyName,
    nickname: identity.nickname,
    preferredUsername: identity.preferredUsername,
    picture: identity.picture,
    emailVerifiedAt: ctx.deps.clock.now(),
    emailVerifiedVia: 'provider' as const,
  });
  link(ctx, login, user.id);
  return user;
}

/** Adds the member with no org roles; an existing membership keeps its roles. */
async function ensureMembership(ctx: HandlerContext, orgId: string, userId: string): Promise<void> {
  if (await ctx.em.findOne(OrgMember, { orgId, userId }, { fields: ['id'] })) return;
  const now = ctx.deps.clock.now();
  ctx.em.persist(ctx.em.create(OrgMember, { id: randomUUID(), orgId, userId, roles: [], createdAt: now, updatedAt: now }));
}

function allowedByConnection(connection: SsoConnection, email: string): boolean {
  if (connection.allowedEmailDomains.length === 0) return true;
  const domain = emailDomain(email);
  return domain !== undefined && connection.allowedEmailDomains.includes(domain);
}

/** Must run inside a transaction: the link, the account, the membership and the session commit together. */
export async function completeSsoSignIn(ctx: HandlerContext, login: SsoLogin): Promise<SsoSignInResult> {
  let user = await linkedUser(ctx, login);
  let created = false;
  if (!user) {
    const email = login.identity.email ? normaliseEmail(login.identity.email) : undefined;
    if (!email) throw new SignInRefused(400, 'No email address', [`${login.org.displayName}'s sign-in did not share an email address, and an account here needs one.`]);
    if (!allowedByConnection(login.connection, email)) {
      throw new SignInRefused(403, 'Address not allowed', [`${login.org.displayName}'s sign-in is not set up for this email address's domain.`]);
    }
    const authoritative = await idpAuthoritativeFor(ctx, login, email);
    user = await linkByEmail(ctx, login, email, authoritative);
    if (!user) {
      user = await createFor(ctx, login, email, authoritative);
      created = true;
    }
  }
  if (user.revokedAt) throw new SignInRefused(403, 'Access revoked', ['Access for this account has been revoked.']);
  await ensureMembership(ctx, login.org.id, user.id);
  let roles: string[];
  try {
    roles = created ? [...user.roles] : rolesForLogin(user, []);
  } catch (err) {
    if (err instanceof AppError) throw new SignInRefused(403, 'Roles not allowed', [`${err.message}.`]);
    throw err;
  }
  const loginMethod = orgSsoLoginMethod(login.org.id);
  // The IdP's word is a first factor like a password: the MFA gate comes before any session.
  const gate = await secondFactorChallenge(ctx, user, { roles, scope: login.scope, loginMethod });
  if (gate) {
    if (created) recordEvent(ctx.em, 'user.signup', { user: toPublicUser(user), auth_recipe: SSO_SIGNUP_METHOD }, ctx.deps.clock);
    return { user, gate };
  }
  await completeLogin(ctx, user, { roles, scope: login.scope, loginMethod, message: 'Logged in successfully', events: created ? ['user.signup'] : [] });
  return { user };
}
