/**
 * Erasure of an account (docs/privacy.md#what-erasure-does): the events that name it, handed to webhook
 * delivery or not. One not handed over yet is dropped too: the webhooks then hear of the account once more,
 * by the `user.deleted` event the erasure records after this (docs/events.md), and never again of what it did.
 *
 * An event's payload is free-form JSON whose shape depends on its name, so this reads the events recorded
 * since the account existed (the `createdAt` index) in bounded batches and matches the id and addresses in
 * the text, which holds on every driver.
 */
import type { EntityManager } from '@mikro-orm/core';
import { EventOutbox } from './event-outbox.entity.ts';

const BATCH = 500;

/** Whether `text` contains one of `needles` (the account's id and addresses), ignoring case. */
export function namesAny(text: string, needles: readonly string[]): boolean {
  const lower = text.toLowerCase();
  return needles.some((needle) => needle && lower.includes(needle.toLowerCase()));
}

export async function forgetEventsNaming(em: EntityManager, needles: readonly string[], since: Date): Promise<number> {
  let after = '';
  let deleted = 0;
  for (;;) {
    const rows = await em.find(
      EventOutbox,
      { createdAt: { $gte: since }, id: { $gt: after } },
      { fields: ['id', 'payload'], orderBy: { id: 'asc' }, limit: BATCH, disableIdentityMap: true },
    );
    const naming = rows.filter((row) => namesAny(JSON.stringify(row.payload), needles)).map((row) => row.id);
    if (naming.length) deleted += await em.nativeDelete(EventOutbox, { id: { $in: naming } });
    if (rows.length < BATCH) return deleted;
    after = rows[rows.length - 1]!.id;
  }
}
