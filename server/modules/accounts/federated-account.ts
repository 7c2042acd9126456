/**
 * Which account a federated sign-in (a social provider, an organization's OpenID Connect or SAML IdP) is
 * for: one find-link-create rule for every upstream (docs/identity-boundary.md).
 *
 * 1. The account already linked to the upstream's stable subject (OpenID Connect Core 5.7: `sub` under its
 *    issuer is the one stable identifier; a SAML persistent NameID likewise). A link whose account was
 *    deleted is dropped and the sign-in goes on as a first one.
 * 2. Else an existing account with the same email address, linked only when the address is proven on both
 *    sides: the upstream vouches for it, and this server proved it (users/ proof of address). Anything
 *    weaker lets whoever registered the victim's address first, with verification off or by an email
 *    change, take over the victim's later federated sign-in (pre-account hijacking).
 *    An upstream that is authoritative for the address's domain (an organization's IdP for a domain the
 *    organization verified) may claim an account whose address was never proven, but only by taking it over
 *    cleanly: the password, sessions, passkeys, second factors and other links go first, so that whoever
 *    registered it keeps no way in.
 * 3. Else a new account, when the upstream's rules allow one.
 *
 * Who may then sign in, and how, is the sign-in policy's (sign-in-policy.ts).
 */
import type { HandlerContext } from '../../ops/define.ts';
import { emailProven, findUserByEmail, findUserById, type UserRow } from '../users/index.ts';
import { SignInRefused } from './sign-in-refused.ts';

/** The link table of one upstream, for one subject. */
export interface UpstreamLinks {
  /** The user id the subject is linked to, if any. */
  linkedUserId(): Promise<string | undefined>;
  dropLink(): Promise<void>;
  link(userId: string): void;
}

export interface FederatedIdentity {
  /** How the person sees the upstream in messages: a provider's or an organization's name. */
  upstreamName: string;
  /** Absent when the upstream gives no identifier that lasts (a SAML transient NameID): no link is kept. */
  links?: UpstreamLinks;
  /** The normalised email address the upstream asserted, if any. */
  email?: string;
  /** The upstream vouches that the address is the person's (OpenID Connect Core 5.1 email_verified). */
  upstreamProvesEmail: boolean;
  /** The upstream is authoritative for the address's domain: an unproven account may be taken over cleanly. */
  authoritativeForDomain: boolean;
  /** Why an account with this address exists but cannot be linked: the page the person sees. */
  linkRefused: () => SignInRefused;
  /** Makes the new account (or refuses with a page); the resolver links it. */
  createAccount: (email: string) => Promise<UserRow>;
  /** Called on an existing account this sign-in has just linked. */
  onLinked?: (user: UserRow) => void;
  /** Takes over an account whose address was never proven (required when authoritativeForDomain). */
  takeOver?: (user: UserRow) => Promise<void>;
}

export interface FederatedAccount {
  user: UserRow;
  created: boolean;
}

const deactivated = () => new SignInRefused(403, 'This account is not active', ['The account for this sign-in has been deactivated.']);

async function linkedUser(ctx: HandlerContext, identity: FederatedIdentity): Promise<UserRow | undefined> {
  const userId = await identity.links?.linkedUserId();
  if (userId === undefined) return undefined;
  const user = await findUserById(ctx.em, userId, { includeDeactivated: true });
  if (!user) {
    await identity.links!.dropLink();
    return undefined;
  }
  if (user.deactivatedAt) throw deactivated();
  return user;
}

async function linkByEmail(ctx: HandlerContext, identity: FederatedIdentity, email: string): Promise<UserRow | undefined> {
  const existing = await findUserByEmail(ctx.em, email, { includeDeactivated: true });
  if (!existing) return undefined;
  if (existing.deactivatedAt) throw deactivated();
  if (!identity.upstreamProvesEmail) throw identity.linkRefused();
  if (!emailProven(existing)) {
    if (!identity.authoritativeForDomain || !identity.takeOver) throw identity.linkRefused();
    await identity.takeOver(existing);
  }
  identity.links?.link(existing.id);
  identity.onLinked?.(existing);
  return existing;
}

/** Must run inside a transaction: the link, the account and the session commit together. */
export async function resolveFederatedAccount(ctx: HandlerContext, identity: FederatedIdentity): Promise<FederatedAccount> {
  const linked = await linkedUser(ctx, identity);
  if (linked) return { user: linked, created: false };
  const { email } = identity;
  if (!email) {
    throw new SignInRefused(400, 'No email address', [`${identity.upstreamName} did not share an email address, and an account here needs one.`]);
  }
  const existing = await linkByEmail(ctx, identity, email);
  if (existing) return { user: existing, created: false };
  const user = await identity.createAccount(email);
  identity.links?.link(user.id);
  return { user, created: true };
}
