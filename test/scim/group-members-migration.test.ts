/**
 * Migration 0006 on every available kind: groups written while their members were a JSON list in
 * scim_groups.members get one scim_group_members row per distinct member (a group of 2,500 members in
 * several inserts), the column is emptied, a membership check answers from the new rows, and running the
 * migration again adds nothing.
 */
import { describe, test, after } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from '../support/databases.ts';
import { ScimGroup, ScimGroupMember } from '../../server/modules/scim/index.ts';
import { moveScimGroupMembersMigration } from '../../server/storage/migrations/0006-move-scim-group-members.ts';
import { groupIdsWithMember, memberIdsOf } from '../../server/modules/scim/scim-group-members.ts';
import { openTestStorage, silentLogger } from '../storage/open-test-storage.ts';

const T = new Date('2026-05-01T10:00:00.000Z');

for (const kind of testDatabaseKinds()) {
  describe(`migration 0006 on ${kind}`, () => {
    const dbs: TestDatabase[] = [];
    after(async () => {
      for (const db of dbs) await db.cleanup();
    });

    test('moves the member lists of existing groups into scim_group_members, once', async () => {
      const db = await createTestDatabase(kind);
      dbs.push(db);
      const bare = await openTestStorage(db.flags, { migrations: [] });
      const orgId = randomUUID();
      const people = Array.from({ length: 2500 }, () => randomUUID());
      const groups: Record<string, string> = {};
      try {
        const em = bare.fork();
        const group = (name: string, legacyMembers: string[]) => {
          groups[name] = randomUUID();
          em.create(ScimGroup, { id: groups[name]!, orgId, displayName: name, displayNameKey: name, externalId: null, legacyMembers, version: 1, createdAt: T, updatedAt: T });
        };
        group('big', people);
        group('pair', [people[0]!, people[1]!, people[0]!]);
        group('empty', []);
        await em.flush();
      } finally {
        await bare.close();
      }
      const migrated = await openTestStorage(db.flags);
      try {
        const em = () => migrated.fork();
        assert.deepEqual(await memberIdsOf(em(), groups.pair!), [people[0]!, people[1]!].sort());
        assert.equal(await em().count(ScimGroupMember, { groupId: groups.big! }), 2500);
        assert.deepEqual(await memberIdsOf(em(), groups.empty!), []);
        assert.deepEqual((await groupIdsWithMember(em(), orgId, people[1]!)).sort(), [groups.big!, groups.pair!].sort());
        assert.deepEqual((await groupIdsWithMember(em(), orgId, people[2000]!)), [groups.big!]);
        const emptied = await em().find(ScimGroup, { orgId }, { fields: ['id', 'legacyMembers'] });
        assert.deepEqual(emptied.map((g) => g.legacyMembers), [[], [], []], 'the old column is emptied');
        await moveScimGroupMembersMigration.up({ kind: migrated.kind, orm: migrated.orm, em: migrated.fork(), logger: silentLogger });
        assert.equal(await em().count(ScimGroupMember, { orgId }), 2502, 'running it again adds nothing');
      } finally {
        await migrated.close();
      }
    });
  });
}
