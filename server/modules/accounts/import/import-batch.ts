/**
 * Writes a batch of imported users in one transaction (docs/importing-users.md#how-it-runs): one query finds
 * the accounts the batch's lines already match (by external id, email or phone number, deactivated ones
 * included, since they still hold their addresses), one the identity claims held by anyone else, then the
 * new users, their claims (users/identity-claims.ts, the service-side uniqueness of docs/architecture.md#storage)
 * and their `user.created` events go in with a few multi-row inserts. A batch that meets a concurrent
 * signup (a claim taken between the read and the insert) rolls back and is written again line by line,
 * each through createAccount as an administrator's create_user is, so the claims decide as they always do.
 *
 * An address the line marks verified is the administrator's word (users/address-proof.ts 'admin'), as
 * create_user takes it (docs/identity-boundary.md#one-proof-of-address).
 */
import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/core';
import type { HandlerContext } from '../../../ops/define.ts';
import { AppError } from '../../../kernel/errors.ts';
import { claimId, IdentityClaim, toPublicUser, User, type UserRow } from '../../users/index.ts';
import { EventOutbox, type EventName } from '../../events/index.ts';
import { createAccount } from '../create-account.ts';
import type { ImportRecord } from './import-line.ts';

export type LineOutcome = { line: number; outcome: 'created' | 'unchanged' } | { line: number; outcome: 'failed'; reason: string };

type Existing = Pick<UserRow, 'id' | 'email' | 'phoneNumber' | 'importedId'>;

const signupMethodsOf = (record: ImportRecord) => [...(record.email ? ['basic_auth'] : []), ...(record.phone ? ['mobile_basic_auth'] : [])];

/**
 * The accounts the batch's lines name, indexed by each identity: one query per identity kind, each a range
 * of its own index (an OR of the three made SQLite scan).
 */
async function findExisting(em: EntityManager, records: readonly ImportRecord[]): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  const lookups: Array<[keyof Existing & ('email' | 'phoneNumber' | 'importedId'), string, string[]]> = [
    ['email', 'email', records.flatMap((r) => (r.email ? [r.email] : []))],
    ['phoneNumber', 'phone', records.flatMap((r) => (r.phone ? [r.phone] : []))],
    ['importedId', 'external', records.flatMap((r) => (r.externalId ? [r.externalId] : []))],
  ];
  for (const [column, kind, values] of lookups) {
    if (values.length === 0) continue;
    const rows = (await em.find(User, { [column]: { $in: values } }, { fields: ['id', column], disableIdentityMap: true })) as Existing[];
    for (const row of rows) found.set(`${kind}:${row[column]}`, row.id);
  }
  return found;
}

function keysOf(record: ImportRecord): string[] {
  return [
    ...(record.externalId ? [`external:${record.externalId}`] : []),
    ...(record.email ? [`email:${record.email}`] : []),
    ...(record.phone ? [`phone:${record.phone}`] : []),
  ];
}

function userRow(record: ImportRecord, id: string, now: Date) {
  return {
    id,
    email: record.email ?? null,
    emailVerifiedAt: record.emailVerified ? now : null,
    emailVerifiedVia: record.emailVerified ? 'admin' : null,
    phoneNumber: record.phone ?? null,
    phoneNumberVerifiedAt: record.phoneVerified ? now : null,
    passwordHash: record.passwordHash ?? null,
    passwordChangeRequiredAt: null,
    signupMethods: signupMethodsOf(record).join(','),
    givenName: record.profile.givenName ?? null,
    familyName: record.profile.familyName ?? null,
    middleName: record.profile.middleName ?? null,
    nickname: record.profile.nickname ?? null,
    preferredUsername: record.profile.preferredUsername ?? null,
    gender: record.profile.gender ?? null,
    birthdate: record.profile.birthdate ?? null,
    picture: record.profile.picture ?? null,
    roles: record.roles,
    appData: record.appData ?? null,
    isMultiFactorAuthEnabled: null,
    enrolledMfaMethods: null,
    hasSkippedMfaSetupAt: null,
    mfaLockedAt: null,
    revokedAt: null,
    revokedBy: null,
    deactivatedAt: null,
    scimExternalId: null,
    importedId: record.externalId ?? null,
    createdAt: now,
    updatedAt: now,
  };
}

/** Thrown inside the batch transaction when a claim turned out taken: the batch goes line by line instead. */
class ClaimRace extends Error {}

async function writeTogether(ctx: HandlerContext, records: readonly ImportRecord[]): Promise<LineOutcome[]> {
  const now = ctx.deps.clock.now();
  return ctx.deps.storage.fork().transactional(async (em) => {
    const existing = await findExisting(em, records);
    const outcomes: LineOutcome[] = [];
    const fresh: ImportRecord[] = [];
    const firstLineOf = new Map<string, number>();
    for (const record of records) {
      const keys = keysOf(record);
      const repeated = keys.find((key) => firstLineOf.has(key));
      if (keys.some((key) => existing.has(key))) outcomes.push({ line: record.line, outcome: 'unchanged' });
      else if (repeated) outcomes.push({ line: record.line, outcome: 'failed', reason: `the same ${repeated.split(':')[0]} as line ${firstLineOf.get(repeated)}` });
      else fresh.push(record);
      for (const key of keys) if (!firstLineOf.has(key)) firstLineOf.set(key, record.line);
    }
    if (fresh.length === 0) return outcomes;
    const rows = fresh.map((record) => userRow(record, randomUUID(), now));
    const claims = rows.flatMap((row) => [
      ...(row.email ? [{ id: claimId('email', row.email), userId: row.id, createdAt: now }] : []),
      ...(row.phoneNumber ? [{ id: claimId('phone', row.phoneNumber), userId: row.id, createdAt: now }] : []),
    ]);
    // A claim nobody's user row explains (left by a purged account, users/identity-claims.ts takeClaim) or a
    // concurrent signup's: the line-by-line path sorts either out.
    if (await em.count(IdentityClaim, { id: { $in: claims.map((claim) => claim.id) } })) throw new ClaimRace();
    try {
      await em.insertMany(IdentityClaim, claims);
    } catch {
      throw new ClaimRace();
    }
    await em.insertMany(User, rows);
    // user.created as recordEvent writes it (events/record-event.ts), one multi-row insert for the batch
    // rather than 500 entities through the unit of work, which cost more than the users themselves.
    await em.insertMany(EventOutbox, rows.map((row) => ({
      id: randomUUID(),
      eventName: 'user.created' satisfies EventName,
      payload: { user: toPublicUser(row as unknown as UserRow) },
      createdAt: now,
      deliveredAt: null,
      attempts: 0,
    })));
    for (const record of fresh) outcomes.push({ line: record.line, outcome: 'created' });
    return outcomes.sort((a, b) => a.line - b.line);
  });
}

/** One line in its own transaction, through the same account creation create_user uses. */
async function writeOne(ctx: HandlerContext, record: ImportRecord): Promise<LineOutcome> {
  try {
    return await ctx.deps.storage.fork().transactional(async (em) => {
      if ((await findExisting(em, [record])).size > 0) return { line: record.line, outcome: 'unchanged' } as const;
      const now = ctx.deps.clock.now();
      const user = await createAccount({ em, deps: ctx.deps }, {
        email: record.email,
        phoneNumber: record.phone,
        passwordHash: record.passwordHash,
        signupMethods: signupMethodsOf(record),
        roles: record.roles,
        ...record.profile,
        appData: record.appData,
        emailVerifiedAt: record.emailVerified ? now : undefined,
        emailVerifiedVia: 'admin',
        phoneNumberVerifiedAt: record.phoneVerified ? now : undefined,
      });
      if (record.externalId) user.importedId = record.externalId;
      await em.flush();
      return { line: record.line, outcome: 'created' } as const;
    });
  } catch (err) {
    if (err instanceof AppError && err.kind !== 'internal' && err.kind !== 'unavailable') return { line: record.line, outcome: 'failed', reason: err.message };
    throw err;
  }
}

/** Writes the batch, answering one outcome per record in line order. */
export async function writeImportBatch(ctx: HandlerContext, records: readonly ImportRecord[]): Promise<LineOutcome[]> {
  if (records.length === 0) return [];
  try {
    return await writeTogether(ctx, records);
  } catch (err) {
    if (!(err instanceof ClaimRace)) throw err;
  }
  const outcomes: LineOutcome[] = [];
  for (const record of records) outcomes.push(await writeOne(ctx, record));
  return outcomes;
}
