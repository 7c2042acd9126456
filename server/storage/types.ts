/**
 * The storage contract the rest of the server sees. MikroORM underneath; open-storage.ts picks the driver
 * for --database-type. Modules define their entities with MikroORM's defineEntity and list them in their
 * manifest (server/modules/index.ts; explicit, since the single executable cannot discover folders).
 *
 * Portable entity conventions (one entity definition must work on SQLite, PostgreSQL, MySQL/MariaDB and
 * MongoDB; test/storage/contract.test.ts proves the ones that can be tested here):
 *
 * 1. Give every entity an explicit snake_case plural `tableName` (it is also the MongoDB collection name).
 * 2. The primary key is one property named `id`: `id: p.string().primary().length(N)`, its value made by
 *    the application (kernel/crypto randomToken, crypto.randomUUID(), or a hash). No auto-increment and no
 *    ObjectId: MongoDB has no sequences, and a string id reads the same on every driver. On MongoDB the
 *    naming strategy stores the `id` property as `_id` (MikroORM's Mongo driver requires that field), so no
 *    other property may be named `id`, and the Mongo-only `_id`/`serializedPrimaryKey` pattern is not used.
 * 3. Other properties are camelCase; SQL columns become snake_case (phoneNumber -> phone_number), MongoDB
 *    fields keep the property name.
 * 4. Values are set by the application, not by the database: no `defaultRaw('now()')`, no triggers, no
 *    generated columns. Timestamps come from the injected clock (ctx.deps.clock).
 * 5. `p.datetime()` gets millisecond precision everywhere (open-storage.ts gives a datetime without an
 *    explicit length `.length(3)`, otherwise MariaDB would drop the milliseconds).
 * 6. Strings that are indexed or unique stay at `.length(255)` or less (MySQL index key limits); long text
 *    is `p.text()`; structured data is `p.json<T>()`.
 * 7. Uniqueness that must be enforced by a database index uses `.unique()`; catch the
 *    clash with isUniqueViolation(err) from errors.ts. Email and phone number uniqueness is service-side
 *    (docs/api-overview.md#versioning), never a UNIQUE index.
 * 8. Queries go through the EntityManager with plain filters; no raw SQL in modules. Case-insensitive
 *    matching uses equalsIgnoreCase/containsIgnoreCase from case-insensitive.ts (SQL `ilike` is
 *    PostgreSQL-only and SQLite has no REGEXP). The exceptions are hot reads, parameterised statements
 *    below the ORM through storage/bound-statements.ts, because an em.find costs ten times the query
 *    itself: the FGA engine's (a check makes many reads; the targets of bench/fga.ts) and the account a
 *    password sign-in names (every login; bench/login.ts).
 * 9. em.transactional works on every SQL kind; on MongoDB it needs a replica set (as production MongoDB
 *    deployments are). Do not make correctness depend on a transaction spanning a network call.
 * 10. Schema changes are made by editing entities (the schema is brought up to date at startup, adding
 *    tables, columns and indexes, never dropping them); data changes are a new entry at the end of
 *    migrations/list.ts.
 */
import type { EntityManager, MikroORM } from '@mikro-orm/core';

export type DatabaseKind = 'sqlite' | 'postgres' | 'mysql' | 'mariadb' | 'mongodb';

export interface Storage {
  readonly kind: DatabaseKind;
  readonly orm: MikroORM;
  /** A fresh unit of work for one request. */
  fork(): EntityManager;
  /**
   * True when the database answers a trivial query (used by /healthz and /readyz). Never throws; answers
   * false within about two seconds when the database is gone, and false after close().
   */
  ping(): Promise<boolean>;
  close(): Promise<void>;
}
