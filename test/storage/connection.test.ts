/**
 * From flags to a connection: kinds and aliases, URL or parts, TLS material, and failures that name the
 * problem without ever showing the password (docs/configuration.md#required; docs/errors.md: no secrets).
 */
import { describe, test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PostgreSqlDriver } from '@mikro-orm/postgresql';
import { MySqlDriver } from '@mikro-orm/mysql';
import { MariaDbDriver } from '@mikro-orm/mariadb';
import { MongoDriver } from '@mikro-orm/mongodb';
import { SqliteDriver } from '@mikro-orm/sql';
import { BoundSqliteDriver } from '../../server/storage/sqlite-driver.ts';
import { connectionTarget } from '../../server/storage/connection-target.ts';
import { ormOptions, PortableMongoNamingStrategy } from '../../server/storage/orm-options.ts';
import { createTestDatabase } from '../support/databases.ts';
import { configFor, openTestStorage, silentLogger } from './open-test-storage.ts';

const PASSWORD = 'hunter2-Sekr3t/pw';
const CA = '-----BEGIN CERTIFICATE-----\nMIIBfakeCA\n-----END CERTIFICATE-----\n';
const target = (flags: string[]) => connectionTarget(configFor(flags));

describe('connection target from flags', () => {
  test('every --database-type maps to its driver; PostgreSQL-compatible engines share the postgres driver', async () => {
    const cases: [string, string, unknown][] = [
      ['postgres', 'postgres', PostgreSqlDriver],
      ['postgresql', 'postgres', PostgreSqlDriver],
      ['cockroachdb', 'postgres', PostgreSqlDriver],
      ['yugabyte', 'postgres', PostgreSqlDriver],
      ['mysql', 'mysql', MySqlDriver],
      ['mariadb', 'mariadb', MariaDbDriver],
      ['mongodb', 'mongodb', MongoDriver],
    ];
    for (const [type, kind, driver] of cases) {
      const t = target(['--database-type', type, '--database-url', 'scheme://u:p@db.example:1234/main']);
      assert.equal(t.kind, kind, type);
      assert.equal((await ormOptions(t, [], silentLogger)).driver, driver, type);
    }
    const sqlite = target(['--database-type', 'sqlite', '--database-url', 'file:/var/lib/portcullis/data.db']);
    assert.equal(sqlite.file, '/var/lib/portcullis/data.db');
    const sqliteDriver = (await ormOptions(sqlite, [], silentLogger)).driver;
    assert.equal(sqliteDriver, BoundSqliteDriver, 'SQLite binds query values (storage/sqlite-driver.ts)');
    assert.ok(BoundSqliteDriver.prototype instanceof SqliteDriver);
    assert.equal(target(['--database-type', 'sqlite', '--database-url', ':memory:']).file, ':memory:');
  });

  test('a URL gives host, port, name, user and password; separate flags win over the URL', () => {
    const fromUrl = target(['--database-type', 'postgres', '--database-url', `postgres://app:${encodeURIComponent(PASSWORD)}@db.example:6543/ident`]);
    assert.deepEqual([fromUrl.host, fromUrl.port, fromUrl.dbName, fromUrl.user, fromUrl.password], ['db.example', 6543, 'ident', 'app', PASSWORD]);
    assert.equal(fromUrl.label, 'db.example:6543/ident');
    const mixed = target([
      '--database-type', 'mariadb', '--database-url', 'mysql://app@db.example/ident',
      '--database-password', PASSWORD, '--database-name', 'other',
    ]);
    assert.deepEqual([mixed.host, mixed.port, mixed.dbName, mixed.user, mixed.password], ['db.example', 3306, 'other', 'app', PASSWORD]);
    const parts = target([
      '--database-type', 'postgres', '--database-url', '', '--database-host', '10.0.0.5', '--database-name', 'ident',
      '--database-username', 'svc', '--database-password', PASSWORD,
    ]);
    assert.deepEqual([parts.host, parts.port, parts.dbName, parts.user, parts.password], ['10.0.0.5', 5432, 'ident', 'svc', PASSWORD]);
    assert.ok(!parts.label.includes(PASSWORD));
  });

  test('TLS flags become the driver TLS options (pg/mysql ssl, MongoDB tls)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'portcullis-tls-'));
    after(() => rmSync(dir, { recursive: true, force: true }));
    const caFile = join(dir, 'ca.pem');
    writeFileSync(caFile, CA);
    const tlsFlags = ['--database-ca-cert', caFile, '--database-cert', CA.replace(/CA/g, 'CERT'), '--database-cert-key', CA.replace(/CA/g, 'KEY')];
    const pg = await ormOptions(target(['--database-type', 'postgres', '--database-url', 'postgres://u@h/d', ...tlsFlags]), [], silentLogger);
    assert.deepEqual((pg.driverOptions as { ssl: unknown }).ssl, {
      rejectUnauthorized: true, ca: CA, cert: CA.replace(/CA/g, 'CERT'), key: CA.replace(/CA/g, 'KEY'),
    });
    const maria = await ormOptions(target(['--database-type', 'mariadb', '--database-url', 'mysql://u@h/d', ...tlsFlags]), [], silentLogger);
    assert.equal((maria.driverOptions as { ssl: { ca: string } }).ssl.ca, CA);
    const mongo = await ormOptions(target(['--database-type', 'mongodb', '--database-url', 'mongodb://h/d', ...tlsFlags]), [], silentLogger);
    const mongoOptions = mongo.driverOptions as Record<string, unknown>;
    assert.equal(mongoOptions.tls, true);
    assert.equal(mongoOptions.ca, CA);
    assert.equal(mongoOptions.tlsAllowInvalidCertificates, false);
    const none = await ormOptions(target(['--database-type', 'postgres', '--database-url', 'postgres://u@h/d']), [], silentLogger);
    assert.equal((none.driverOptions as { ssl?: unknown }).ssl, undefined);
    const sslmode = target(['--database-type', 'postgres', '--database-url', 'postgres://u@h/d?sslmode=verify-full']);
    assert.deepEqual(sslmode.tls, { rejectUnauthorized: true });
  });

  test('MongoDB stores the id property as _id; parts become a URL with auth options', async () => {
    const naming = new PortableMongoNamingStrategy();
    assert.equal(naming.propertyToColumnName('id'), '_id');
    assert.equal(naming.propertyToColumnName('phoneNumber'), 'phoneNumber');
    const options = await ormOptions(
      target(['--database-type', 'mongodb', '--database-url', '', '--database-host', 'mongo.example', '--database-name', 'ident', '--database-username', 'svc', '--database-password', PASSWORD]),
      [],
      silentLogger,
    );
    assert.equal(options.clientUrl, 'mongodb://mongo.example:27017/ident');
    assert.equal(options.user, 'svc');
    assert.equal(options.password, PASSWORD);
  });
});

describe('--database-type mysql on a MariaDB server', () => {
  test('uses the MariaDB driver, so the schema update stays idempotent', async () => {
    const db = await createTestDatabase('mariadb');
    after(() => db.cleanup());
    const flags = db.flags.map((flag) => (flag === 'mariadb' ? 'mysql' : flag));
    assert.ok(flags.includes('mysql'));
    for (let i = 0; i < 2; i++) {
      const storage = await openTestStorage(flags);
      try {
        assert.equal(storage.kind, 'mariadb');
        assert.equal(await storage.orm.schema.getUpdateSchemaSQL({ safe: true, dropTables: false }), '');
      } finally {
        await storage.close();
      }
    }
  });
});

describe('connection failures name the problem without the password', () => {
  const refuses = async (flags: string[], expected: RegExp) => {
    await assert.rejects(openTestStorage(flags), (err: Error) => {
      assert.match(err.message, expected);
      assert.ok(!err.message.includes(PASSWORD) && !err.message.includes(encodeURIComponent(PASSWORD)), err.message);
      return true;
    });
  };
  const secretUrl = (scheme: string, port: number, db: string) => `${scheme}://nobody:${encodeURIComponent(PASSWORD)}@127.0.0.1:${port}/${db}`;

  test('PostgreSQL: nothing listening', () =>
    refuses(['--database-type', 'postgres', '--database-url', secretUrl('postgres', 1, 'x')], /cannot connect to the PostgreSQL database 127\.0\.0\.1:1\/x: .*ECONNREFUSED/));

  test('PostgreSQL: unknown role or database', async () => {
    await createTestDatabase('postgres').then((db) => db.cleanup()); // fails clearly when PostgreSQL is down
    await refuses(['--database-type', 'postgres', '--database-url', secretUrl('postgres', 5432, 'portcullis_no_such_db')], /PostgreSQL database 127\.0\.0\.1:5432\/portcullis_no_such_db: .*(does not exist|authentication)/);
  });

  test('MariaDB: wrong credentials, given in the URL or as --database-password', async () => {
    await createTestDatabase('mariadb').then((db) => db.cleanup());
    await refuses(['--database-type', 'mariadb', '--database-url', secretUrl('mysql', 3306, 'test')], /MariaDB database 127\.0\.0\.1:3306\/test: Access denied/);
    await refuses(
      ['--database-type', 'mysql', '--database-url', '', '--database-host', '127.0.0.1', '--database-name', 'test', '--database-username', 'nobody', '--database-password', PASSWORD],
      /MySQL database 127\.0\.0\.1:3306\/test: Access denied/,
    );
  });

  test('SQLite: a path that cannot be created', () =>
    refuses(['--database-type', 'sqlite', '--database-url', '/dev/null/portcullis.db'], /SQLite database \/dev\/null\/portcullis\.db: .*(ENOTDIR|EEXIST|not a directory)/));

  test('SQLite: the parent folder of a new database file is created', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'portcullis-sqlite-'));
    after(() => rmSync(dir, { recursive: true, force: true }));
    const file = join(dir, 'nested', 'deeper', 'portcullis.db');
    const storage = await openTestStorage(['--database-type', 'sqlite', '--database-url', file]);
    try {
      assert.ok(existsSync(file));
      const connection = storage.fork().getConnection();
      assert.equal((await connection.execute('pragma journal_mode'))[0].journal_mode, 'wal');
      assert.equal((await connection.execute('pragma busy_timeout'))[0].timeout, 5000);
      assert.equal((await connection.execute('pragma foreign_keys'))[0].foreign_keys, 1);
    } finally {
      await storage.close();
    }
  });
});
