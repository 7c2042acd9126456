/**
 * The storage contract the rest of the server sees. MikroORM underneath; one implementation per database
 * kind is chosen in open-storage.ts. Modules define their entities with MikroORM's defineEntity and list
 * them in server/modules/entities.ts (explicit, since the single executable cannot discover folders).
 */
import type { EntityManager, MikroORM } from '@mikro-orm/core';

export type DatabaseKind = 'sqlite' | 'postgres' | 'mysql' | 'mariadb' | 'mongodb';

export interface Storage {
  readonly kind: DatabaseKind;
  readonly orm: MikroORM;
  /** A fresh unit of work for one request. */
  fork(): EntityManager;
  /** True when the database answers a trivial query (used by /healthz and /readyz). */
  ping(): Promise<boolean>;
  close(): Promise<void>;
}
