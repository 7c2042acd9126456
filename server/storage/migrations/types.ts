/**
 * A data migration: one ordered, versioned step recorded in the portcullis_migrations table once it has
 * run (see run-migrations.ts). Schema shape is not a migration's job: tables, columns and indexes follow
 * the entity metadata at every startup. A migration must be safe to run again (a crash between its work
 * and its record runs it once more at the next start) and a no-op where there is nothing to do.
 */
import type { EntityManager, MikroORM } from '@mikro-orm/core';
import type { Logger } from 'pino';
import type { DatabaseKind } from '../types.ts';

export interface MigrationContext {
  readonly kind: DatabaseKind;
  readonly orm: MikroORM;
  /** A fresh EntityManager for this migration. */
  readonly em: EntityManager;
  readonly logger: Logger;
}

export interface DataMigration {
  /** Unique and never changed once released, e.g. `0001_drop_stale_contact_uniques`; ordering comes from list.ts. */
  readonly id: string;
  readonly up: (ctx: MigrationContext) => Promise<void>;
}
