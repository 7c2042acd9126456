/**
 * Migration 0002 on every available kind: accounts revoked before users.revoked_by existed are marked as
 * SCIM's when a provider holds them inactive and nobody revoked them again after its last write, so the
 * provider can still lift them; every other revoked account stays unmarked (the administrator's to lift).
 */
import { describe, test, after } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from '../support/databases.ts';
import { User } from '../../server/modules/users/index.ts';
import { ScimUser } from '../../server/modules/scim/index.ts';
import { MigrationRecord } from '../../server/storage/migrations/migration-record.entity.ts';
import type { Storage } from '../../server/storage/types.ts';
import { openTestStorage } from './open-test-storage.ts';

const T = new Date('2026-05-01T10:00:00.000Z');
const later = (ms: number) => new Date(T.getTime() + ms);

async function seed(storage: Storage): Promise<Record<string, string>> {
  const em = storage.fork();
  const orgId = randomUUID();
  const ids: Record<string, string> = {};
  const account = (name: string, revokedAt: Date | null, revokedBy: string | null = null) => {
    const id = randomUUID();
    ids[name] = id;
    em.create(User, {
      id, email: `${name}@example.com`, emailVerifiedAt: null, emailVerifiedVia: null, phoneNumber: null, phoneNumberVerifiedAt: null,
      passwordHash: null, signupMethods: 'scim', roles: ['user'], revokedAt, revokedBy, deactivatedAt: null, scimExternalId: null, createdAt: T, updatedAt: T,
    } as never);
    return id;
  };
  const link = (userId: string, active: boolean, managesAccount: boolean, updatedAt: Date) => {
    em.create(ScimUser, {
      id: randomUUID(), orgId, userId, userName: userId, userNameKey: userId, externalId: null, active, managesAccount, resource: {}, version: 1, createdAt: T, updatedAt,
    });
  };
  // Old code: the provider's request stamped the link, then the account, with two clock readings.
  link(account('by_scim', later(3)), false, true, T);
  link(account('by_scim_seconds', new Date('2026-05-01T10:00:00.000Z')), false, true, new Date('2026-05-01T10:00:00.000Z'));
  link(account('admin_after_scim', later(3_600_000)), false, true, T);
  link(account('link_active', T), true, true, T);
  link(account('not_governed', T), false, false, T);
  link(account('marked_admin', T, 'admin'), false, true, T);
  link(account('not_revoked', null), false, true, T);
  account('no_link', T);
  await em.flush();
  return ids;
}

for (const kind of testDatabaseKinds()) {
  describe(`migration 0002 on ${kind}`, () => {
    const dbs: TestDatabase[] = [];
    after(async () => {
      for (const db of dbs) await db.cleanup();
    });

    test('marks the revocations a SCIM provider made and still holds; leaves every other one to the administrator', async () => {
      const db = await createTestDatabase(kind);
      dbs.push(db);
      const bare = await openTestStorage(db.flags, { migrations: [] });
      let ids: Record<string, string>;
      try {
        ids = await seed(bare);
      } finally {
        await bare.close();
      }
      const migrated = await openTestStorage(db.flags);
      try {
        assert.ok(await migrated.fork().findOne(MigrationRecord, { id: '0002_record_scim_revocations' }));
        const by = async (name: string) => (await migrated.fork().findOneOrFail(User, { id: ids[name]! })).revokedBy;
        assert.equal(await by('by_scim'), 'scim');
        assert.equal(await by('by_scim_seconds'), 'scim');
        assert.equal(await by('admin_after_scim'), null, 'revoked again after the provider\'s last write');
        assert.equal(await by('link_active'), null);
        assert.equal(await by('not_governed'), null);
        assert.equal(await by('marked_admin'), 'admin');
        assert.equal(await by('not_revoked'), null);
        assert.equal(await by('no_link'), null);
      } finally {
        await migrated.close();
      }
    });
  });
}
