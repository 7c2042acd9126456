/**
 * Retention (docs/configuration.md#retention) on SQLite, PostgreSQL and MariaDB, with an injected clock:
 * the sweep deletes exactly the rows older than the retention (audit entries; webhook logs except those of a
 * delivery still pending or being sent; events handed to delivery whose deliveries all succeeded), in
 * batches of at most the batch size; a retention of 0 deletes nothing; of two instances one runs at a time.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { Deps } from '../../server/kernel/deps.ts';
import { openStorage } from '../../server/storage/open-storage.ts';
import type { Storage } from '../../server/storage/types.ts';
import {
  AuditLog, WorkerLease, auditRetentionTask, createAuditRetentionWorker, createRetentionWorker, type RetentionTask,
} from '../../server/modules/audit/index.ts';
import { EventOutbox } from '../../server/modules/events/index.ts';
import { Webhook, WebhookDelivery, WebhookLog } from '../../server/modules/webhooks/index.ts';
import { createWebhookRetentionWorker } from '../../server/modules/webhooks/retention.ts';
import { createTestDatabase, type TestDatabase } from '../support/databases.ts';
import { configFor, silentLogger } from '../storage/open-test-storage.ts';

const DAY_MS = 24 * 3600 * 1000;
const HOUR_MS = 3600 * 1000;
/** The injected clock's fixed time; rows are placed hours away from each cutoff, never on it. */
const NOW = new Date(Date.UTC(2026, 5, 1, 12));
const ago = (days: number, hours = 0) => new Date(NOW.getTime() - days * DAY_MS - hours * HOUR_MS);
const FAST = { batchSize: 3, pauseMs: 0, firstRunDelayMs: 3_600_000 };

function depsOf(storage: Storage, flags: string[]): Deps {
  return { storage, config: configFor(flags), clock: { now: () => new Date(NOW) }, logger: silentLogger } as unknown as Deps;
}

function auditRow(createdAt: Date, tag: string) {
  return {
    id: randomUUID(), actorId: tag, actorType: 'user', actorEmail: '', action: 'user.login', resourceType: 'user',
    resourceId: tag, ipAddress: '', userAgent: '', metadata: '{}', createdAt,
  };
}

for (const kind of ['sqlite', 'postgres', 'mariadb'] as const) {
  describe(`retention on ${kind}`, () => {
    let db: TestDatabase;
    let storage: Storage;

    before(async () => {
      db = await createTestDatabase(kind);
      storage = await openStorage(configFor(db.flags), [AuditLog, WorkerLease, EventOutbox, Webhook, WebhookLog, WebhookDelivery], silentLogger, { migrations: [] });
    });
    after(async () => {
      await storage?.close();
      await db?.cleanup();
    });

    test('audit entries older than the retention are deleted, in batches; newer ones stay; 0 deletes nothing', async () => {
      const em = storage.fork();
      await em.nativeDelete(AuditLog, {});
      // Ten entries 31 to 40 days old, five 1 to 29 days old; the retention is 30 days.
      const old = Array.from({ length: 10 }, (_, i) => auditRow(ago(31 + i, 1), `old-${i}`));
      const recent = Array.from({ length: 5 }, (_, i) => auditRow(ago(1 + i * 7, 1), `recent-${i}`));
      await em.insertMany(AuditLog, [...old, ...recent]);

      const forever = createAuditRetentionWorker(FAST);
      forever.start(depsOf(storage, ['--audit-retention-days', '0']));
      assert.deepEqual(await forever.runNow(), {}, 'a retention of 0 keeps everything');
      await forever.stop();
      assert.equal(await storage.fork().count(AuditLog, {}), 15);

      // Count the batches through a task that wraps the real one.
      const batches: number[] = [];
      const counted: RetentionTask = {
        ...auditRetentionTask,
        pruneBatch: async (batchEm, cutoff, limit, afterCursor) => {
          const batch = await auditRetentionTask.pruneBatch(batchEm, cutoff, limit, afterCursor);
          batches.push(batch.deleted);
          return batch;
        },
      };
      const worker = createRetentionWorker('audit-retention-test', [counted], FAST);
      worker.start(depsOf(storage, ['--audit-retention-days', '30']));
      assert.deepEqual(await worker.runNow(), { audit_logs: 10 });
      await worker.stop();
      assert.deepEqual(batches, [3, 3, 3, 1], 'batches of at most 3 rows');
      const left = await storage.fork().find(AuditLog, {}, { orderBy: { createdAt: 'asc' } });
      assert.deepEqual(left.map((row) => row.actorId).sort(), recent.map((row) => row.actorId).sort());
    });

    test('webhook logs and delivered events: only finished history older than the retention is deleted', async () => {
      const em = storage.fork();
      await em.nativeDelete(WebhookLog, {});
      await em.nativeDelete(WebhookDelivery, {});
      await em.nativeDelete(EventOutbox, {});
      const event = (tag: string, createdAt: Date, deliveredAt: Date | null) => ({ id: randomUUID(), eventName: tag, payload: {}, createdAt, deliveredAt, attempts: deliveredAt ? 1 : 0 });
      const events = {
        deliveredOld: event('delivered-old', ago(10, 2), ago(10, 1)),
        deliveredOldToo: event('delivered-old-too', ago(12, 2), ago(12, 1)),
        pendingOld: event('pending-old', ago(10, 2), ago(10, 1)),
        retryingOld: event('retrying-old', ago(10, 2), ago(10, 1)),
        failedOld: event('failed-old', ago(10, 2), ago(10, 1)),
        notHandedOver: event('not-handed-over', ago(20), null),
        deliveredRecent: event('delivered-recent', ago(2, 2), ago(2, 1)),
      };
      await em.insertMany(EventOutbox, Object.values(events));
      const delivery = (eventId: string, status: string) => ({
        id: randomUUID(), eventId, webhookId: randomUUID(), eventName: 'user.created', payload: {}, status, attempts: 1,
        nextAttemptAt: NOW, leaseUntil: null, createdAt: ago(10), updatedAt: ago(10),
      });
      const pending = delivery(events.pendingOld.id, 'pending');
      const sending = delivery(events.retryingOld.id, 'sending');
      const failed = delivery(events.failedOld.id, 'failed');
      await em.insertMany(WebhookDelivery, [pending, sending, failed]);
      const log = (tag: string, createdAt: Date, deliveryId: string | null) => ({
        id: randomUUID(), webhookId: tag, deliveryId, httpStatus: 500, request: '{}', response: '', createdAt, updatedAt: createdAt,
      });
      const logs = {
        ofPending: log('of-pending', ago(10), pending.id),
        ofSending: log('of-sending', ago(10), sending.id),
        ofFailed: log('of-failed', ago(10), failed.id),
        ofDelivered: log('of-delivered', ago(10), randomUUID()),
        withoutDelivery: log('without-delivery', ago(11), null),
        recent: log('recent', ago(2), null),
      };
      await em.insertMany(WebhookLog, Object.values(logs));

      const forever = createWebhookRetentionWorker(FAST);
      forever.start(depsOf(storage, []));
      assert.deepEqual(await forever.runNow(), {}, 'the defaults keep everything');
      await forever.stop();

      const worker = createWebhookRetentionWorker(FAST);
      worker.start(depsOf(storage, ['--webhook-log-retention-days', '7', '--webhook-event-retention-days', '7']));
      assert.deepEqual(await worker.runNow(), { webhook_logs: 3, events_outbox: 2 });
      await worker.stop();
      const eventsLeft = (await storage.fork().find(EventOutbox, {})).map((row) => row.eventName).sort();
      assert.deepEqual(eventsLeft, ['delivered-recent', 'failed-old', 'not-handed-over', 'pending-old', 'retrying-old']);
      const logsLeft = (await storage.fork().find(WebhookLog, {})).map((row) => row.webhookId).sort();
      assert.deepEqual(logsLeft, ['of-pending', 'of-sending', 'recent']);
      assert.equal(await storage.fork().count(WebhookDelivery, {}), 3, 'deliveries are never deleted by retention');
    });

    test('of two instances one runs at a time; stopping hands the lease over', async () => {
      const flags = ['--audit-retention-days', '30'];
      await storage.fork().insertMany(AuditLog, [auditRow(ago(40), 'lease-a'), auditRow(ago(41), 'lease-b')]);
      const first = createAuditRetentionWorker(FAST);
      const second = createAuditRetentionWorker(FAST);
      first.start(depsOf(storage, flags));
      second.start(depsOf(storage, flags));
      assert.deepEqual(await first.runNow(), { audit_logs: 2 });
      await storage.fork().insertMany(AuditLog, [auditRow(ago(42), 'lease-c')]);
      assert.deepEqual(await second.runNow(), {}, 'the first instance holds the lease');
      await first.stop();
      assert.deepEqual(await second.runNow(), { audit_logs: 1 });
      await second.stop();
    });
  });
}
