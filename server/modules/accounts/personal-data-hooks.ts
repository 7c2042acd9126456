/**
 * The two moments the modules above accounts take part in an account's personal data (docs/privacy.md):
 * its holder's copy (export_my_data) and its erasure (delete_my_account, delete_user). What they keep about
 * the account (passkeys, linked social and organization identities, OAuth consents, codes and pending
 * requests) lives in modules that accounts may not import (docs/architecture.md#module-layers), so each
 * adds its section to the copy and removes its rows on erasure here.
 *
 * Both are required: a copy that left out a module's data would not be the whole copy GDPR Art. 15 and 20
 * promise, and an erasure that left its rows would not be one (Art. 17).
 */
import type { EntityManager } from '@mikro-orm/core';
import { defineHook } from '../../kernel/hooks.ts';

/** The sections of the copy, by name; a handler adds its own and never reads or changes another's. */
export type PersonalDataSections = Record<string, unknown>;

/** The account's copy is being made: add the sections this module holds, without secrets. */
export const onPersonalDataExport = defineHook<[em: EntityManager, userId: string, sections: PersonalDataSections]>('onPersonalDataExport', { required: true });

/**
 * The account is being erased, in the caller's transaction, before its sessions and its row go: delete
 * every row this module keys by the account.
 */
export const onAccountErased = defineHook<[em: EntityManager, userId: string]>('onAccountErased', { required: true });
