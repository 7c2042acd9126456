/**
 * The event outbox (docs/events.md): an event is written in the caller's transaction, so it exists exactly
 * when the change it reports was committed. Runs on SQLite, PostgreSQL and MariaDB.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createTestDatabase, type TestDatabase, type TestDatabaseKind } from '../support/databases.ts';
import { configFor, silentLogger } from '../storage/open-test-storage.ts';
import { openStorage } from '../../server/storage/open-storage.ts';
import { ENTITIES } from '../../server/modules/entities.ts';
import type { Storage } from '../../server/storage/types.ts';
import { EVENT_NAMES, EventOutbox, listEvents, recordEvent } from '../../server/modules/events/index.ts';

const clockAt = (iso: string) => ({ now: () => new Date(iso) });

for (const kind of ['sqlite', 'postgres', 'mariadb'] as TestDatabaseKind[]) {
  describe(`event outbox on ${kind}`, () => {
    let db: TestDatabase;
    let storage: Storage;
    before(async () => {
      db = await createTestDatabase(kind);
      storage = await openStorage(configFor(db.flags), ENTITIES, silentLogger);
    });
    after(async () => {
      await storage?.close();
      await db?.cleanup();
    });

    test('an event recorded in a transaction that rolls back leaves no row', async () => {
      await assert.rejects(
        storage.fork().transactional(async (em) => {
          recordEvent(em, 'user.deleted', { user: { id: 'rolled-back' } }, clockAt('2026-01-01T00:00:00.000Z'));
          await em.flush();
          throw new Error('the change failed');
        }),
        /the change failed/,
      );
      assert.equal(await storage.fork().count(EventOutbox, { eventName: 'user.deleted' }), 0);
    });

    test('an event recorded in a transaction that commits leaves exactly one row', async () => {
      const clock = clockAt('2026-01-02T03:04:05.678Z');
      const payload = { user: { id: 'u-1', email: 'ann@example.com' }, auth_recipe: 'basic_auth' };
      await storage.fork().transactional(async (em) => {
        recordEvent(em, 'user.login', payload, clock);
      });
      const rows = await listEvents(storage.fork(), { eventName: 'user.login', limit: 10 });
      assert.equal(rows.length, 1);
      const [row] = rows;
      assert.deepEqual(row!.payload, payload);
      assert.equal(row!.createdAt.toISOString(), '2026-01-02T03:04:05.678Z');
      assert.equal(row!.attempts, 0);
      assert.equal(row!.deliveredAt, null);
      assert.match(row!.id, /^[0-9a-f-]{36}$/);
    });

    test('recordEvent only joins the unit of work: nothing is written until the caller flushes', async () => {
      const em = storage.fork();
      recordEvent(em, 'user.deactivated', { user: { id: 'u-2' } }, clockAt('2026-01-03T00:00:00.000Z'));
      assert.equal(await storage.fork().count(EventOutbox, { eventName: 'user.deactivated' }), 0);
      await em.flush();
      assert.equal(await storage.fork().count(EventOutbox, { eventName: 'user.deactivated' }), 1);
    });

    test('the payload is copied when recorded', async () => {
      const em = storage.fork();
      const payload = { user: { id: 'before' } };
      recordEvent(em, 'user.access_revoked', payload, clockAt('2026-01-04T00:00:00.000Z'));
      payload.user.id = 'after';
      await em.flush();
      const [row] = await listEvents(storage.fork(), { eventName: 'user.access_revoked', limit: 1 });
      assert.deepEqual(row!.payload, { user: { id: 'before' } });
    });

    test('an unknown event name throws and records nothing', async () => {
      const em = storage.fork();
      assert.throws(() => recordEvent(em, 'user.logged_in', {}, clockAt('2026-01-05T00:00:00.000Z')), /unknown event name "user\.logged_in"/);
      await em.flush();
      assert.equal(await storage.fork().count(EventOutbox, { eventName: 'user.logged_in' }), 0);
    });

    test('every docs/events.md event name is accepted', async () => {
      const em = storage.fork();
      for (const name of EVENT_NAMES) recordEvent(em, name, { n: name }, clockAt('2027-01-01T00:00:00.000Z'));
      await em.flush();
      for (const name of EVENT_NAMES) {
        assert.ok((await storage.fork().count(EventOutbox, { eventName: name })) >= 1, name);
      }
    });

    test('listEvents: oldest first, limited, optionally only the undelivered', async () => {
      const em = storage.fork();
      const rows = ['2026-03-01T00:00:03.000Z', '2026-03-01T00:00:01.000Z', '2026-03-01T00:00:02.000Z'].map((at) =>
        recordEvent(em, 'group.updated', { at }, clockAt(at)),
      );
      rows[1]!.deliveredAt = new Date('2026-03-01T00:01:00.000Z');
      rows[1]!.attempts = 1;
      await em.flush();
      // The names test above recorded one group.updated later, in 2027.
      const all = await listEvents(storage.fork(), { eventName: 'group.updated', limit: 10 });
      assert.equal(all.length, 4);
      assert.deepEqual(all.slice(0, 3).map((r) => r.payload.at), ['2026-03-01T00:00:01.000Z', '2026-03-01T00:00:02.000Z', '2026-03-01T00:00:03.000Z']);
      const firstTwo = await listEvents(storage.fork(), { eventName: 'group.updated', limit: 2 });
      assert.deepEqual(firstTwo.map((r) => r.payload.at), ['2026-03-01T00:00:01.000Z', '2026-03-01T00:00:02.000Z']);
      const pending = await listEvents(storage.fork(), { eventName: 'group.updated', undeliveredOnly: true, limit: 10 });
      assert.deepEqual(pending.map((r) => r.payload.at ?? r.payload.n), ['2026-03-01T00:00:02.000Z', '2026-03-01T00:00:03.000Z', 'group.updated']);
      const any = await listEvents(storage.fork(), { limit: 1000 });
      assert.ok(any.length >= 5 + EVENT_NAMES.length);
    });
  });
}
