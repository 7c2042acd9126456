/**
 * Migration 0003 on every available kind: before clients had post_logout_redirect_uris, /logout returned to any
 * of a client's redirect URIs. A client written before the column gets its redirect URIs as post-logout targets
 * (those the new rule accepts: https, or plain http to a loopback host), so a deployment's logout keeps
 * returning where it did; a client whose list is already set, empty included, is left alone; running it again
 * changes nothing. Then a server on the migrated database follows the copied target at /logout.
 */
import { describe, test, after } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from '../support/databases.ts';
import { startServer } from '../support/app.ts';
import { Client } from '../../server/modules/clients/index.ts';
import { MigrationRecord } from '../../server/storage/migrations/migration-record.entity.ts';
import { copyRedirectUrisToPostLogout } from '../../server/storage/migrations/0003-copy-post-logout-redirect-uris.ts';
import type { Storage } from '../../server/storage/types.ts';
import { openTestStorage, silentLogger } from './open-test-storage.ts';

const T = new Date('2026-05-01T10:00:00.000Z');
const LEGACY_REDIRECTS = [
  'https://legacy.example.com/callback', 'https://legacy.example.com/logged-out', 'http://127.0.0.1:9000/bye',
  'http://[::1]:9000/bye', 'http://localhost:9000/bye', 'http://intranet.example.com/bye',
];

async function seed(storage: Storage): Promise<Record<string, { id: string; clientId: string }>> {
  const em = storage.fork();
  const made: Record<string, { id: string; clientId: string }> = {};
  const client = (name: string, redirectUris: string[], postLogoutRedirectUris: string[] | null) => {
    const ids = { id: randomUUID(), clientId: `c_${randomUUID().replace(/-/g, '')}` };
    made[name] = ids;
    em.create(Client, {
      ...ids, name, description: '', allowedScopes: [], redirectUris, postLogoutRedirectUris, consentRequired: false, isActive: true,
      createdAt: T, updatedAt: T, secretHash: '0'.repeat(64), previousSecretHash: null, previousSecretExpiresAt: null,
    });
  };
  client('legacy', LEGACY_REDIRECTS, null);
  client('no_redirects', [], null);
  client('already_set', ['https://set.example.com/cb'], null);
  client('cleared', ['https://cleared.example.com/cb'], null);
  await em.flush();
  return made;
}

for (const kind of testDatabaseKinds()) {
  describe(`migration 0003 on ${kind}`, () => {
    const dbs: TestDatabase[] = [];
    after(async () => {
      for (const db of dbs) await db.cleanup();
    });

    test('a client from before the column returns after logout where it did; set lists stay; a second run changes nothing', async () => {
      const db = await createTestDatabase(kind);
      dbs.push(db);
      const before = await openTestStorage(db.flags, { migrations: [] });
      let ids: Awaited<ReturnType<typeof seed>>;
      try {
        ids = await seed(before);
        // A database of the version before: no such column at all.
        await before.fork().getConnection().execute('alter table clients drop column post_logout_redirect_uris');
      } finally {
        await before.close();
      }
      // The startup schema update adds the column, null in every row; two rows then get a list (as after an
      // interrupted run of the migration, or an administrator's edit) that the migration must not touch.
      const upgraded = await openTestStorage(db.flags, { migrations: [] });
      try {
        const em = upgraded.fork();
        const rows = await em.find(Client, {});
        assert.ok(rows.length === 4 && rows.every((row) => row.postLogoutRedirectUris === null), 'the added column is null');
        (await em.findOneOrFail(Client, { id: ids.already_set!.id })).postLogoutRedirectUris = ['https://set.example.com/out'];
        (await em.findOneOrFail(Client, { id: ids.cleared!.id })).postLogoutRedirectUris = [];
        await em.flush();
      } finally {
        await upgraded.close();
      }
      const migrated = await openTestStorage(db.flags);
      const listOf = async (name: string) => (await migrated.fork().findOneOrFail(Client, { id: ids[name]!.id })).postLogoutRedirectUris;
      try {
        assert.ok(await migrated.fork().findOne(MigrationRecord, { id: '0003_copy_post_logout_redirect_uris' }));
        assert.deepEqual(await listOf('legacy'), LEGACY_REDIRECTS.slice(0, 5), 'plain http to a non-loopback host is not copied');
        assert.deepEqual(await listOf('no_redirects'), []);
        assert.deepEqual(await listOf('already_set'), ['https://set.example.com/out']);
        assert.deepEqual(await listOf('cleared'), [], 'an emptied list is an administrator\'s choice');
        const row = await migrated.fork().findOneOrFail(Client, { id: ids.legacy!.id });
        assert.deepEqual(row.redirectUris, LEGACY_REDIRECTS, 'the redirect URIs are untouched');

        const em = migrated.fork();
        const again = await em.findOneOrFail(Client, { id: ids.legacy!.id });
        again.postLogoutRedirectUris = ['https://legacy.example.com/changed-later'];
        await em.flush();
        await copyRedirectUrisToPostLogout.up({ kind: migrated.kind, orm: migrated.orm, em: migrated.fork(), logger: silentLogger });
        assert.deepEqual(await listOf('legacy'), ['https://legacy.example.com/changed-later'], 'a second run overwrites nothing');
        again.postLogoutRedirectUris = LEGACY_REDIRECTS.slice(0, 5);
        await em.flush();
      } finally {
        await migrated.close();
      }

      const server = await startServer(db.flags);
      try {
        const logout = await fetch(`${server.baseUrl}/logout?${new URLSearchParams({
          client_id: ids.legacy!.clientId, post_logout_redirect_uri: 'https://legacy.example.com/logged-out', state: 'kept',
        })}`, { redirect: 'manual' });
        assert.equal(logout.status, 303);
        assert.equal(logout.headers.get('location'), 'https://legacy.example.com/logged-out?state=kept');
      } finally {
        await server.close();
      }
    });
  });
}
