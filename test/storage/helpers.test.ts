/**
 * The storage helpers that need no particular database: duplicate-key detection on raw driver errors,
 * secret redaction, the bounded ping, and the guard that every entity of the server is valid on MongoDB
 * (MikroORM checks metadata without a server, so this runs even where no MongoDB is reachable).
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { MikroORM, type MikroORM as Orm } from '@mikro-orm/core';
import { isUniqueViolation, redactSecrets, describeDriverError } from '../../server/storage/errors.ts';
import { pingDatabase, withTimeout } from '../../server/storage/ping.ts';
import { ormOptions } from '../../server/storage/orm-options.ts';
import { connectionTarget } from '../../server/storage/connection-target.ts';
import { MigrationRecord } from '../../server/storage/migrations/migration-record.entity.ts';
import { ENTITIES } from '../../server/modules/entities.ts';
import { withoutUniqueOn } from '../../server/storage/migrations/sqlite-drop-unique.ts';
import { createTestDatabase } from '../support/databases.ts';
import { CONTRACT_ENTITIES } from './contract-entities.ts';
import { configFor, openTestStorage, silentLogger } from './open-test-storage.ts';

describe('isUniqueViolation on raw driver errors', () => {
  test('recognises each driver duplicate-key shape, also as a cause', () => {
    assert.equal(isUniqueViolation(Object.assign(new Error('dup'), { code: '23505' })), true);
    assert.equal(isUniqueViolation(Object.assign(new Error('dup'), { code: 'ER_DUP_ENTRY', errno: 1062 })), true);
    assert.equal(isUniqueViolation(Object.assign(new Error('E11000 duplicate key'), { code: 11000 })), true);
    assert.equal(isUniqueViolation(Object.assign(new Error('UNIQUE constraint failed: t.c'), { errcode: 2067 })), true);
    assert.equal(isUniqueViolation(new Error('outer', { cause: Object.assign(new Error('inner'), { code: '23505' }) })), true);
    assert.equal(isUniqueViolation(Object.assign(new Error('fk'), { code: '23503' })), false);
    assert.equal(isUniqueViolation('23505'), false);
  });
});

describe('secret redaction', () => {
  test('removes the password in plain and URL-encoded form and URL user-info passwords', () => {
    const pw = 'p@ss/w0rd';
    const text = `failed for postgres://app:${encodeURIComponent(pw)}@db:5432/x and ${pw} and mysql://u:other@h/d`;
    const out = redactSecrets(text, [pw]);
    assert.ok(!out.includes(pw) && !out.includes(encodeURIComponent(pw)) && !out.includes('other'), out);
    assert.match(out, /postgres:\/\/app:\[redacted\]@db:5432\/x/);
  });

  test('describes errors with an empty message by their parts or code', () => {
    const aggregate = new AggregateError([Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' })], '');
    assert.equal(describeDriverError(aggregate), 'connect ECONNREFUSED 127.0.0.1:1');
    assert.equal(describeDriverError(Object.assign(new Error(''), { code: 'ETIMEDOUT' })), 'ETIMEDOUT');
  });
});

describe('bounded ping', () => {
  test('a probe that never answers gives false at the bound instead of hanging', async () => {
    const hung = { checkConnection: () => new Promise(() => {}) } as unknown as Orm;
    const started = Date.now();
    assert.equal(await pingDatabase(hung, 100), false);
    assert.ok(Date.now() - started < 1000);
    assert.equal(await withTimeout(Promise.resolve('done'), 100, 'late'), 'done');
  });

  test('a probe that throws gives false', async () => {
    const broken = { checkConnection: () => Promise.reject(new Error('socket closed')) } as unknown as Orm;
    assert.equal(await pingDatabase(broken), false);
  });

  test('PostgreSQL: ping turns false when the database disappears under an open storage', async () => {
    const db = await createTestDatabase('postgres');
    const storage = await openTestStorage(db.flags);
    try {
      assert.equal(await storage.ping(), true);
      await db.cleanup(); // DROP DATABASE ... WITH (FORCE) ends the pooled sessions
      const started = Date.now();
      assert.equal(await storage.ping(), false);
      assert.ok(Date.now() - started < 3000, 'answered within the ping bound');
    } finally {
      await storage.close();
    }
  });
});

describe('portable entities', () => {
  test('every entity of the server (and of the contract suite) passes the MongoDB driver metadata rules', async () => {
    const target = connectionTarget(configFor(['--database-type', 'mongodb', '--database-url', 'mongodb://127.0.0.1:1/never-contacted']));
    const orm = new MikroORM(await ormOptions(target, [...CONTRACT_ENTITIES, MigrationRecord], silentLogger));
    try {
      const discovered = [...orm.getMetadata().getAll().values()];
      assert.equal(discovered.length, ENTITIES.length + 2);
      for (const meta of discovered) {
        assert.deepEqual(meta.getPrimaryProps().map((p) => p.name), ['id'], `${meta.className} has the primary key "id"`);
        assert.deepEqual(meta.getPrimaryProps()[0]!.fieldNames, ['_id'], `${meta.className} stores it as _id`);
      }
    } finally {
      await orm.close(true);
    }
  });
});

describe('SQLite CREATE TABLE without a stale UNIQUE', () => {
  test('removes column and one-column table constraints on the column only, in any quoting', () => {
    assert.equal(
      withoutUniqueOn('CREATE TABLE "u" ("id" text primary key, "email" varchar(255) not null unique, "backup_email" text unique)', 'email'),
      'CREATE TABLE "u" ("id" text primary key, "email" varchar(255) not null, "backup_email" text unique)',
    );
    assert.equal(
      withoutUniqueOn('CREATE TABLE u (id text, `phone_number` text CONSTRAINT u_p UNIQUE ON CONFLICT ABORT, n int)', 'phone_number'),
      'CREATE TABLE u (id text, `phone_number` text, n int)',
    );
    assert.equal(
      withoutUniqueOn('CREATE TABLE u (id text, email text, other text, CONSTRAINT u_email_key UNIQUE ([email]), UNIQUE (email, other))', 'email'),
      'CREATE TABLE u (id text, email text, other text, UNIQUE (email, other))',
    );
  });
});
