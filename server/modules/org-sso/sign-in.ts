/**
 * Who an organization SSO sign-in signs in, and into what (docs/events.md: SSO callbacks fire signup
 * or login): the one federated find-link-create rule (accounts/federated-account.ts) with the organization's
 * IdP as upstream, the same for OpenID Connect and SAML connections (SAML: NameID with its format,
 * saml-identity.ts).
 *
 * The IdP's word about an address counts only when it asserts email_verified (SAML has no such claim: there
 * the domain alone decides) AND the address's domain is verified for this very organization (org-domains:
 * the organization proved it owns the domain, which is what makes its IdP authoritative for the addresses
 * in it). Then an existing account with that address is linked when this server proved the address too, or
 * taken over cleanly when nobody did (users/ clean takeover: whoever registered the address first keeps no
 * way in). Without that authority nothing is linked or created: an org-admin's IdP, which any org-admin can
 * point anywhere, must not claim addresses outside the organization's domains. A new account is made even
 * with --enable-signup off (the IdP is a source an administrator configured).
 *
 * The user becomes a member of the organization (no org roles; an existing membership keeps its roles),
 * then the one sign-in policy (accounts/sign-in-policy.ts) decides the rest.
 */
import type { HandlerContext } from '../../ops/define.ts';
import type { Static } from '../../ops/schema.ts';
import { randomUUID } from 'node:crypto';
import { AppError } from '../../kernel/errors.ts';
import { markEmailVerified, normaliseEmail, rolesForLogin, rolesForSignup, type UserRow } from '../users/index.ts';
import { createAccount, resolveFederatedAccount, type UpstreamLinks, takeOverUnprovenAccount, SignInRefused, signIn } from '../accounts/index.ts';
import type { AuthResponse } from '../accounts/index.ts';
import { OrgMember, type OrganizationRow } from '../organizations/index.ts';
import { emailDomain, verifiedOrganizationForDomain } from '../org-domains/index.ts';
import type { UpstreamIdentity } from '../social/index.ts';
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

function linksOf(ctx: HandlerContext, login: SsoLogin): UpstreamLinks | undefined {
  const { subject } = login.identity;
  if (subject === undefined) return undefined;
  const id = `${login.connection.id}:${subject}`;
  return {
    linkedUserId: async () => (await ctx.em.findOne(OrgSsoIdentity, { id }))?.userId,
    dropLink: async () => void (await ctx.em.nativeDelete(OrgSsoIdentity, { id })),
    link: (userId) => void ctx.em.create(OrgSsoIdentity, { id, orgId: login.org.id, connectionId: login.connection.id, subject, userId, createdAt: ctx.deps.clock.now() }),
  };
}

/** True when the IdP's word about `email` counts: asserted verified, in a domain this organization verified. */
async function idpAuthoritativeFor(ctx: HandlerContext, login: SsoLogin, email: string): Promise<boolean> {
  if (!login.identity.emailVerified) return false;
  const domain = emailDomain(email);
  if (!domain) return false;
  const owner = await verifiedOrganizationForDomain(ctx.em, domain);
  return owner?.id === login.org.id;
}

async function createFor(ctx: HandlerContext, login: SsoLogin, email: string, authoritative: boolean): Promise<UserRow> {
  if (!authoritative) {
    throw new SignInRefused(403, 'Address not in the organization', [
      `${login.org.displayName}'s sign-in can create accounts only for confirmed addresses in the domains the organization has verified.`,
      "Ask the organization's administrator to verify the domain, or to have the sign-in confirm the address.",
    ]);
  }
  const { identity } = login;
  return createAccount(ctx, {
    email,
    signupMethods: [SSO_SIGNUP_METHOD],
    roles: rolesForSignup(ctx.deps.config, []),
    givenName: identity.givenName,
    familyName: identity.familyName,
    nickname: identity.nickname,
    preferredUsername: identity.preferredUsername,
    picture: identity.picture,
    emailVerifiedAt: ctx.deps.clock.now(),
    emailVerifiedVia: 'organization' as const,
  });
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
  const email = login.identity.email ? normaliseEmail(login.identity.email) : undefined;
  const links = linksOf(ctx, login);
  const linked = links ? await links.linkedUserId() : undefined;
  if (linked === undefined && email && !allowedByConnection(login.connection, email)) {
    throw new SignInRefused(403, 'Address not allowed', [`${login.org.displayName}'s sign-in is not set up for this email address's domain.`]);
  }
  const authoritative = linked === undefined && email !== undefined && (await idpAuthoritativeFor(ctx, login, email));
  const { user, created } = await resolveFederatedAccount(ctx, {
    upstreamName: `${login.org.displayName}'s sign-in`,
    links,
    email,
    upstreamProvesEmail: authoritative,
    authoritativeForDomain: authoritative,
    linkRefused: () => new SignInRefused(409, 'Sign in with your password first', [
      `An account with this email address already exists, and ${login.org.displayName}'s sign-in could not be linked to it automatically: the address is not in a domain the organization has verified, or the organization's sign-in did not confirm it.`,
      'Sign in the way you usually do, or ask the organization\'s administrator.',
    ]),
    createAccount: (address) => createFor(ctx, login, address, authoritative),
    takeOver: async (existing) => {
      await takeOverUnprovenAccount(ctx, existing, { organizationId: login.org.id, via: 'org_sso' });
      // The organization's IdP vouched for the address in a domain the organization verified.
      markEmailVerified(existing, 'organization', ctx.deps.clock.now());
    },
  });
  await ensureMembership(ctx, login.org.id, user.id);
  let roles: string[];
  try {
    roles = created ? [...user.roles] : rolesForLogin(user, []);
  } catch (err) {
    if (err instanceof AppError) throw new SignInRefused(403, 'Roles not allowed', [`${err.message}.`]);
    throw err;
  }
  // The IdP's word is a first factor like a password: the sign-in policy decides the rest.
  const outcome = await signIn(ctx, {
    strategy: 'org_sso',
    user,
    loginMethod: orgSsoLoginMethod(login.org.id),
    roles,
    scope: login.scope,
    message: 'Logged in successfully',
    signup: created,
    organization: login.org,
  });
  return outcome.gated ? { user, gate: outcome.response } : { user };
}
