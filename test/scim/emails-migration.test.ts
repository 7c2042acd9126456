/**
 * Migration 0005 on every available kind: SCIM users provisioned before scim_user_emails existed get one
 * lower-cased row per distinct email value of their stored resource (a value longer than the column is left
 * out), so that `emails[value eq "..."]` finds them (modules/scim/scim-list.ts); running it again adds nothing.
 */
import { describe, test, after } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from '../support/databases.ts';
import { ScimUser } from '../../server/modules/scim/index.ts';
import { ScimUserEmail } from '../../server/modules/scim/scim.entity.ts';
import { indexScimUserEmailsMigration } from '../../server/storage/migrations/0005-index-scim-user-emails.ts';
import { MIGRATIONS } from '../../server/storage/migrations/list.ts';
import { openTestStorage, silentLogger } from '../storage/open-test-storage.ts';

const T = new Date('2026-05-01T10:00:00.000Z');

for (const kind of testDatabaseKinds()) {
  describe(`migration 0005 on ${kind}`, () => {
    const dbs: TestDatabase[] = [];
    after(async () => {
      for (const db of dbs) await db.cleanup();
    });

    test('indexes the emails of SCIM users provisioned before the table, once', async () => {
      const db = await createTestDatabase(kind);
      dbs.push(db);
      const bare = await openTestStorage(db.flags, { migrations: [] });
      const orgId = randomUUID();
      const links: Record<string, string> = {};
      try {
        const em = bare.fork();
        const link = (name: string, resource: Record<string, unknown>) => {
          links[name] = randomUUID();
          em.create(ScimUser, { id: links[name]!, orgId, userId: randomUUID(), userName: name, userNameKey: name, externalId: null, active: true, managesAccount: true, resource, version: 1, createdAt: T, updatedAt: T });
        };
        link('two', { emails: [{ value: 'Two@Example.com', primary: true }, { value: 'two@home.example' }, { value: 'TWO@example.com' }] });
        link('none', { title: 'x' });
        link('long', { emails: [{ value: `${'a'.repeat(300)}@example.com` }, { value: 'short@example.com' }] });
        for (let i = 0; i < 600; i++) link(`bulk${i}`, { emails: [{ value: `bulk${i}@example.com` }] });
        await em.flush();
      } finally {
        await bare.close();
      }
      // Up to 0005 only: these links name no account, and 0007 removes the links of deleted accounts.
      const migrated = await openTestStorage(db.flags, { migrations: MIGRATIONS.filter((m) => m.id < '0006') });
      try {
        const keysOf = async (name: string) => (await migrated.fork().find(ScimUserEmail, { linkId: links[name]! })).map((r) => r.valueKey).sort();
        assert.deepEqual(await keysOf('two'), ['two@example.com', 'two@home.example']);
        assert.deepEqual(await keysOf('none'), []);
        assert.deepEqual(await keysOf('long'), ['short@example.com']);
        assert.equal(await migrated.fork().count(ScimUserEmail, { orgId }), 603);
        await indexScimUserEmailsMigration.up({ kind: migrated.kind, orm: migrated.orm, em: migrated.fork(), logger: silentLogger });
        assert.equal(await migrated.fork().count(ScimUserEmail, { orgId }), 603, 'running it again adds nothing');
      } finally {
        await migrated.close();
      }
    });
  });
}
