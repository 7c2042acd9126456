/**
 * An organization's identity provider claiming an account whose address nobody proved (users/address-proof.ts).
 * With email verification off, anyone can register `ceo@corp.example` with their own password before the
 * organization verifies `corp.example`; linking that account as it stands to the organization's SCIM user or
 * SSO sign-in would hand the real holder's organization identity to whoever registered it first, and their
 * password would keep working (pre-account hijacking: OWASP ASVS 2.5.x; RFC 7644 section 7.5 on linking by
 * untrusted attributes). The organization proved it owns the domain, so its IdP may take the address, but only
 * cleanly: every way in that the previous holder set up goes first, and what they wrote about themselves too.
 *
 * Removed: the password; every session and token, pending authorization codes and consents; passkeys, second
 * factors, recovery codes and MFA state (mfa/reset-mfa.ts); social and organization SSO links; outstanding
 * emailed links and texted codes; the phone number (its holder could reset the password by texted code); the
 * unproven verified mark; the self-asserted profile fields and app_data. Kept: the id, the address, roles,
 * memberships and the account's state (a revoked or deactivated account stays so). Recorded: the event
 * `user.taken_over` and the audit entry `user.account_taken_over`. Runs in the caller's transaction.
 */
import type { EntityManager } from '@mikro-orm/core';
import type { Deps } from '../../kernel/deps.ts';
import type { Caller, RequestMeta } from '../../kernel/context.ts';
import { clearEmailVerification, clearPhoneVerification, emailProven, releaseClaim, toPublicUser, type UserRow } from '../users/index.ts';
import { revokeAllForUser } from '../tokens/index.ts';
import { resetMfa } from '../mfa/index.ts';
import { defineHook } from '../../kernel/hooks.ts';
import { deleteOtpsFor, deleteVerificationsFor } from '../verification/index.ts';
import { recordEvent } from '../events/index.ts';
import { audit } from '../audit/index.ts';

export interface TakeoverContext {
  /** The caller's transaction: the takeover commits with the link it makes way for. */
  readonly em: EntityManager;
  readonly deps: Deps;
  readonly req: RequestMeta;
}

export interface TakeoverBy {
  /** The organization whose identity provider takes the account. */
  readonly organizationId: string;
  /** scim: its SCIM provisioning; org_sso: its OpenID Connect or SAML sign-in. */
  readonly via: 'scim' | 'org_sso';
}

/**
 * The account is being taken over, in the caller's transaction: the modules above this one remove what the
 * previous holder left with them (oauth: authorization codes, consents and waiting requests; social and
 * org-sso: linked identities). Required: a takeover that kept a way in would not be clean.
 */
export const onAccountTakeover = defineHook<[em: EntityManager, userId: string]>('onAccountTakeover', { required: true });

const SELF_ASSERTED = ['givenName', 'familyName', 'middleName', 'nickname', 'preferredUsername', 'gender', 'birthdate', 'picture', 'appData'] as const;

/** Used where no one is signed in: the actor of the audit entry is named explicitly. */
const NO_CALLER: Caller = { kind: 'anonymous' };

/**
 * Takes over `user`, whose email address was never proven, for the organization's IdP. The caller has
 * checked that the address is in a domain the organization verified; the address must not be proven (a
 * proven account is linked as it is, never wiped). The caller flushes.
 */
export async function takeOverUnprovenAccount(ctx: TakeoverContext, user: UserRow, by: TakeoverBy): Promise<void> {
  if (emailProven(user)) throw new Error('takeOverUnprovenAccount: the address was proven; link the account instead');
  const { em, deps } = ctx;
  const { clock } = deps;
  const userId = user.id;
  await revokeAllForUser(em, clock, userId);
  await resetMfa(em, clock, user);
  await onAccountTakeover.run(em, userId);
  await deleteVerificationsFor(em, { userId, email: user.email });
  await deleteOtpsFor(em, { userId, email: user.email, phone: user.phoneNumber });
  if (user.phoneNumber) await releaseClaim(em, 'phone', user.phoneNumber, userId);
  user.phoneNumber = null;
  clearPhoneVerification(user);
  clearEmailVerification(user);
  user.passwordHash = null;
  user.passwordChangeRequiredAt = null;
  user.isMultiFactorAuthEnabled = null;
  for (const field of SELF_ASSERTED) user[field] = null;
  user.updatedAt = clock.now();
  recordEvent(em, 'user.taken_over', { user: toPublicUser(user), org_id: by.organizationId, via: by.via }, clock);
  await audit({ ...ctx, caller: NO_CALLER }, {
    action: 'user.account_taken_over',
    actor: { type: 'client', id: by.organizationId },
    resourceType: 'user',
    resourceId: userId,
    metadata: { org_id: by.organizationId, via: by.via },
  });
}
