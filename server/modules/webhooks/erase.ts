/**
 * Erasure of an account (docs/privacy.md#what-erasure-does): the webhook history that names it. Deliveries
 * (pending, retrying or failed for good) and the logs of every attempt keep the body, with the account's id
 * and address in it; all go, as the events they came from do (events/erase.ts). A delivery being sent right
 * now finishes its request; its outcome then finds no row to update (worker.ts records by id).
 *
 * A log's request is the body's text, so this reads the rows written since the account existed (the
 * `createdAt` indexes) in bounded batches and matches the id and addresses in the text, on every driver.
 */
import type { EntityManager } from '@mikro-orm/core';
import { namesAny } from '../events/index.ts';
import { WebhookDelivery, WebhookLog } from './webhook.entity.ts';

const BATCH = 500;

export async function forgetWebhookHistoryNaming(em: EntityManager, needles: readonly string[], since: Date): Promise<number> {
  let deleted = 0;
  let after = '';
  for (;;) {
    const rows = await em.find(
      WebhookDelivery,
      { createdAt: { $gte: since }, id: { $gt: after } },
      { fields: ['id', 'payload'], orderBy: { id: 'asc' }, limit: BATCH, disableIdentityMap: true },
    );
    const naming = rows.filter((row) => namesAny(JSON.stringify(row.payload), needles)).map((row) => row.id);
    if (naming.length) deleted += await em.nativeDelete(WebhookDelivery, { id: { $in: naming } });
    if (rows.length < BATCH) break;
    after = rows[rows.length - 1]!.id;
  }
  after = '';
  for (;;) {
    const rows = await em.find(
      WebhookLog,
      { createdAt: { $gte: since }, id: { $gt: after } },
      { fields: ['id', 'request', 'response'], orderBy: { id: 'asc' }, limit: BATCH, disableIdentityMap: true },
    );
    const naming = rows.filter((row) => namesAny(`${JSON.stringify(row.request)} ${JSON.stringify(row.response)}`, needles)).map((row) => row.id);
    if (naming.length) deleted += await em.nativeDelete(WebhookLog, { id: { $in: naming } });
    if (rows.length < BATCH) return deleted;
    after = rows[rows.length - 1]!.id;
  }
}
