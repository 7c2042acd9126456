/**
 * Tables of the released line with the UNIQUE indexes that docs/api-overview.md#versioning says upgraded
 * servers remove: email and phone_number on the user and OTP tables, made in every way a schema may
 * carry them (column constraint, named table constraint, CREATE UNIQUE INDEX), next to a unique index
 * on another column and a plain index that must both survive.
 */
import { randomUUID } from 'node:crypto';
import type { Storage } from '../../server/storage/types.ts';

const SQL_FIXTURE = [
  `create table authorizer_users (id varchar(36) not null primary key, email varchar(255) unique, phone_number varchar(32),
     nickname varchar(64), constraint authorizer_users_phone_number_key unique (phone_number))`,
  'create index authorizer_users_nickname_idx on authorizer_users (nickname)',
  `create table authorizer_otps (id varchar(36) not null primary key, email varchar(255), phone_number varchar(32), otp varchar(64) not null)`,
  'create unique index authorizer_otps_email_idx on authorizer_otps (email)',
  'create unique index authorizer_otps_phone_number_idx on authorizer_otps (phone_number)',
  'create unique index authorizer_otps_otp_idx on authorizer_otps (otp)',
  `insert into authorizer_users (id, email, phone_number, nickname) values ('seed', 'seed@example.com', '+19999999999', 'seed')`,
];

const EMAIL = 'dup@example.com';
const PHONE = '+10000000000';

interface MongoCollection {
  createIndex(keys: object, options?: object): Promise<unknown>;
  insertOne(doc: object): Promise<unknown>;
  countDocuments(filter: object): Promise<number>;
}
function mongo(storage: Storage, name: string): MongoCollection {
  return (storage.orm.em.getConnection() as unknown as { getDb(): { collection(n: string): MongoCollection } }).getDb().collection(name);
}

async function sql(storage: Storage, statement: string, params: unknown[] = []): Promise<Record<string, unknown>[]> {
  return (await storage.fork().getConnection().execute(statement, params, 'all')) as Record<string, unknown>[];
}

export async function createStaleUniques(storage: Storage): Promise<void> {
  if (storage.kind !== 'mongodb') {
    for (const statement of SQL_FIXTURE) await sql(storage, statement);
    return;
  }
  const users = mongo(storage, 'authorizer_users');
  await users.createIndex({ email: 1 }, { unique: true });
  await users.createIndex({ phone_number: 1 }, { unique: true });
  await users.createIndex({ nickname: 1 });
  await users.insertOne({ _id: 'seed', email: 'seed@example.com', phone_number: '+19999999999', nickname: 'seed' });
  const otps = mongo(storage, 'authorizer_otps');
  await otps.createIndex({ email: 1 }, { unique: true });
  await otps.createIndex({ phoneNumber: 1 }, { unique: true });
  await otps.createIndex({ otp: 1 }, { unique: true });
}

/** One user and one OTP row with the same email and phone as every other call; `otp` is the other unique column. */
export async function insertContactRows(storage: Storage, otp: string = randomUUID()): Promise<void> {
  if (storage.kind === 'mongodb') {
    await mongo(storage, 'authorizer_users').insertOne({ _id: randomUUID(), email: EMAIL, phone_number: PHONE });
    await mongo(storage, 'authorizer_otps').insertOne({ _id: randomUUID(), email: EMAIL, phoneNumber: PHONE, otp });
    return;
  }
  await sql(storage, 'insert into authorizer_users (id, email, phone_number) values (?, ?, ?)', [randomUUID(), EMAIL, PHONE]);
  await sql(storage, 'insert into authorizer_otps (id, email, phone_number, otp) values (?, ?, ?, ?)', [randomUUID(), EMAIL, PHONE, otp]);
}

export async function seedRowCount(storage: Storage): Promise<number> {
  if (storage.kind === 'mongodb') return mongo(storage, 'authorizer_users').countDocuments({ _id: 'seed', nickname: 'seed' });
  const rows = await sql(storage, `select count(*) as n from authorizer_users where id = 'seed' and nickname = 'seed'`);
  return Number(rows[0]?.n);
}
