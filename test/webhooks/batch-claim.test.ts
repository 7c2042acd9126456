/**
 * The batch claim of webhook deliveries (server/modules/webhooks/claim.ts; docs/events.md#the-delivery):
 * two instances claiming from one database (PostgreSQL, MariaDB, SQLite) at the same time never hold the same delivery, and
 * a claim whose holder crashed is taken again once its lease has run out, with the same delivery id and
 * the attempt counted.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from '../support/databases.ts';
import { openTestStorage } from '../storage/open-test-storage.ts';
import { systemClock, type Deps } from '../../server/kernel/deps.ts';
import type { Storage } from '../../server/storage/types.ts';
import { WebhookDelivery } from '../../server/modules/webhooks/index.ts';
import { claimDue } from '../../server/modules/webhooks/claim.ts';

const OPTIONS = { leaseMs: 60_000, maxAttempts: 8 };

function depsOf(storage: Storage): Deps {
  return { storage, clock: systemClock } as unknown as Deps;
}

async function insertPending(storage: Storage, count: number): Promise<string[]> {
  const now = new Date(Date.now() - 1000);
  const rows = Array.from({ length: count }, (_, i) => ({
    id: randomUUID(), eventId: randomUUID(), webhookId: `hook-${i % 7}`, eventName: 'user.login', payload: { user: { id: `u-${i}` } },
    status: 'pending', attempts: 0, nextAttemptAt: now, leaseUntil: null, createdAt: now, updatedAt: now,
  }));
  await storage.fork().insertMany(WebhookDelivery, rows);
  return rows.map((row) => row.id);
}

for (const kind of testDatabaseKinds()) {
  describe(`webhook batch claim on ${kind}`, () => {
    let db: TestDatabase;
    let a: Storage;
    let b: Storage;
    before(async () => {
      db = await createTestDatabase(kind);
      a = await openTestStorage(db.flags);
      // A second pool on the same database: another instance of the server.
      b = kind === 'sqlite' ? a : await openTestStorage(db.flags);
    });
    after(async () => {
      if (b !== a) await b.close();
      await a.close();
      await db.cleanup();
    });

    test('two instances claiming at once never hold the same delivery, and together claim all of them', async () => {
      const ids = await insertPending(a, 600);
      const held = new Map<string, string>();
      async function instance(name: string, storage: Storage): Promise<void> {
        for (let idle = 0; idle < 3; ) {
          const { claimed } = await claimDue(depsOf(storage), 40, [], OPTIONS);
          if (claimed.length === 0) idle += 1;
          for (const row of claimed) {
            assert.equal(held.get(row.id), undefined, `${row.id} claimed by ${held.get(row.id)} and ${name}`);
            assert.equal(row.attempts, 1);
            held.set(row.id, name);
          }
        }
      }
      await Promise.all([instance('A', a), instance('B', b), instance('A2', a), instance('B2', b)]);
      assert.deepEqual([...held.keys()].sort(), [...ids].sort());
      const sending = await a.fork().count(WebhookDelivery, { id: { $in: ids }, status: 'sending', attempts: 1 });
      assert.equal(sending, ids.length);
      await a.fork().nativeDelete(WebhookDelivery, { id: { $in: ids } });
    });

    test('a claim whose holder crashed is taken again after its lease, with the same delivery id', async () => {
      const ids = await insertPending(a, 5);
      const first = await claimDue(depsOf(a), 10, [], { ...OPTIONS, leaseMs: 300 });
      assert.deepEqual(first.claimed.map((row) => row.id).sort(), [...ids].sort());
      // The holder "crashes": it records nothing. While its lease runs, nobody else takes the rows.
      assert.equal((await claimDue(depsOf(b), 10, [], OPTIONS)).claimed.length, 0);
      await new Promise((resolve) => setTimeout(resolve, 400));
      const again = await claimDue(depsOf(b), 10, [], OPTIONS);
      assert.deepEqual(again.claimed.map((row) => row.id).sort(), [...ids].sort(), 'the same deliveries, so the same X-Service-Delivery ids');
      assert.ok(again.claimed.every((row) => row.attempts === 2), 'the crashed attempt counts');
      await a.fork().nativeDelete(WebhookDelivery, { id: { $in: ids } });
    });
  });
}
