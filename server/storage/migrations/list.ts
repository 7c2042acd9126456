/**
 * The ordered data migrations. Append only: never reorder, rename or remove a released entry (its id is
 * recorded in the database). The single executable cannot discover files, so this list is the registry.
 */
import type { DataMigration } from './types.ts';
import { dropStaleContactUniques } from './0001-drop-stale-contact-uniques.ts';
import { recordScimRevocations } from './0002-record-scim-revocations.ts';
import { copyRedirectUrisToPostLogout } from './0003-copy-post-logout-redirect-uris.ts';
import { indexUsersSearchText } from './0004-users-search-text.ts';
import { indexScimUserEmailsMigration } from './0005-index-scim-user-emails.ts';
import { moveScimGroupMembersMigration } from './0006-move-scim-group-members.ts';
import { dropScimRecordsOfDeletedAccountsMigration } from './0007-drop-scim-records-of-deleted-accounts.ts';

export const MIGRATIONS: readonly DataMigration[] = [dropStaleContactUniques, recordScimRevocations, copyRedirectUrisToPostLogout, indexUsersSearchText, indexScimUserEmailsMigration, moveScimGroupMembersMigration, dropScimRecordsOfDeletedAccountsMigration];
