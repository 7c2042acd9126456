/**
 * The account a password sign-in names by its email or phone number (login, change_initial_password):
 * the first read of every login, for an unknown account too. Read with one bound statement below the
 * ORM (storage/bound-statements.ts, the exception storage/types.ts rule 8 names) and handed to the unit of
 * work with em.map, so the caller gets the same managed row em.findOne would give: em.findOne spent about
 * 0.45 ms of CPU per login building and compiling its query, the statement and em.map about 0.05 ms.
 *
 * The same filter as findUserByEmail/findUserByPhone (users.service.ts): the normalised address, and a
 * deactivated account is not found. em.findOne still answers where the bound read cannot stand in for it:
 * on MongoDB, inside a transaction (SQLite's one connection would queue the read behind the transaction
 * itself), and for a unit of work that already holds rows (em.map refreshes a row it holds, which
 * could overwrite a change not flushed yet; findOne keeps it).
 */
import type { EntityManager } from '@mikro-orm/core';
import { createSqlRunner, statement, type SqlRunner, type Statement } from '../../storage/bound-statements.ts';
import type { DatabaseKind, Storage } from '../../storage/types.ts';
import { normaliseEmail, normalisePhoneNumber } from './contact.ts';
import { User, type UserRow } from './user.entity.ts';
import { findUserByEmail, findUserByPhone } from './users.service.ts';

type Contact = 'email' | 'phone_number';

/** PostgreSQL numbers its placeholders; SQLite, MySQL and MariaDB take `?`. */
function byContact(column: Contact, kind: DatabaseKind): Statement {
  const placeholder = kind === 'postgres' ? '$1' : '?';
  return statement(`select * from users where ${column} = ${placeholder} and deactivated_at is null limit 1`);
}

interface BoundLookup {
  run: SqlRunner;
  byEmail: Statement;
  byPhone: Statement;
}

const lookups = new WeakMap<Storage, BoundLookup>();

function boundLookup(storage: Storage): BoundLookup | undefined {
  if (storage.kind === 'mongodb') return undefined;
  let lookup = lookups.get(storage);
  if (!lookup) {
    lookup = { run: createSqlRunner(storage), byEmail: byContact('email', storage.kind), byPhone: byContact('phone_number', storage.kind) };
    lookups.set(storage, lookup);
  }
  return lookup;
}

/** True when em.map's row can stand in for em.findOne's: outside a transaction, in an empty unit of work. */
function freshUnitOfWork(em: EntityManager): boolean {
  return !em.isInTransaction() && em.getUnitOfWork(false).getIdentityMap().keys().length === 0;
}

/** The active account with this email or phone number (normalised first), or null. */
export async function findSignInAccount(
  storage: Storage,
  em: EntityManager,
  contact: { email?: string | null; phone_number?: string | null },
): Promise<UserRow | null> {
  const lookup = boundLookup(storage);
  if (!lookup || !freshUnitOfWork(em)) {
    return contact.email ? findUserByEmail(em, contact.email) : findUserByPhone(em, contact.phone_number ?? '');
  }
  const value = contact.email ? normaliseEmail(contact.email) : normalisePhoneNumber(contact.phone_number ?? '');
  if (!value) return null;
  const rows = await lookup.run(contact.email ? lookup.byEmail : lookup.byPhone, [value]);
  return rows[0] ? em.map(User, rows[0]) : null;
}
