/**
 * Erasure of an account (docs/privacy.md#what-erasure-does; GDPR Art. 17): its holder's delete_my_account
 * and the super-admin's delete_user both end here, in the caller's transaction. What goes: the user row and
 * its identity claims, every session and token (the token state cache forgets them, so a token fails at
 * once), second factors, passkeys and recovery codes, emailed links and texted codes, organization
 * memberships and SCIM records, the message outbox rows addressed to it, the events and webhook history that
 * name it once delivered, and through onAccountErased what the modules above keep (social and organization
 * identities, OAuth consents, codes and pending requests, device authorizations, passkey challenges,
 * back-channel logout deliveries). What stays: the audit entries, rewritten to name the account by a stable
 * pseudonym, without its addresses, IP or user agent (audit/erased-user.ts).
 *
 * The caller records `user.deleted` afterwards (docs/events.md): that event is owed to the webhooks that
 * listen for it and carries the account as it was, until it is delivered.
 */
import type { EntityManager } from '@mikro-orm/core';
import type { Config } from '../../config/flags.ts';
import { purgeUser, type UserRow } from '../users/index.ts';
import { purgeTokensForUser } from '../tokens/index.ts';
import { deleteOtpsFor, deleteVerificationsFor } from '../verification/index.ts';
import { purgeMfaRecords } from '../mfa/index.ts';
import { removeAllMemberships } from '../organizations/index.ts';
import { deleteMessagesFor } from '../messages/index.ts';
import { forgetEventsNaming } from '../events/index.ts';
import { forgetWebhookHistoryNaming } from '../webhooks/index.ts';
import { erasedUserPseudonym, pseudonymiseAuditEntries } from '../audit/index.ts';
import { onAccountErased } from './personal-data-hooks.ts';

export interface ErasedAccount {
  /** The pseudonym the audit log now names the account by. */
  pseudonym: string;
}

export async function eraseAccount(em: EntityManager, config: Config, user: UserRow): Promise<ErasedAccount> {
  const userId = user.id;
  const addresses = [user.email, user.phoneNumber].filter((value): value is string => Boolean(value));
  // First, while the sessions still exist: the modules above may need them to find their rows.
  await onAccountErased.run(em, userId);
  await purgeTokensForUser(em, userId);
  await deleteVerificationsFor(em, { userId, email: user.email });
  await deleteOtpsFor(em, { userId, email: user.email, phone: user.phoneNumber });
  await purgeMfaRecords(em, userId);
  await removeAllMemberships(em, userId);
  await deleteMessagesFor(em, { userId, destinations: addresses });
  await forgetEventsNaming(em, [userId, ...addresses], user.createdAt);
  await forgetWebhookHistoryNaming(em, [userId, ...addresses], user.createdAt);
  const pseudonym = erasedUserPseudonym(config, userId);
  await pseudonymiseAuditEntries(em, { userId, pseudonym, identifiers: addresses });
  await purgeUser(em, userId);
  return { pseudonym };
}
