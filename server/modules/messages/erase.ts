/**
 * Erasure of an account (docs/privacy.md#what-erasure-does): the outbox rows addressed to it, whether
 * queued, failed or sent, by its id or by its address (the flows a stranger can start carry the address
 * only, enqueue.ts). A message still waiting is not sent: its link or code would reach an erased account.
 */
import type { EntityManager } from '@mikro-orm/core';
import { MessageJob } from './message-job.entity.ts';

export async function deleteMessagesFor(em: EntityManager, to: { userId: string; destinations: readonly string[] }): Promise<number> {
  const byAddress = to.destinations.length ? [{ destination: { $in: [...to.destinations] } }] : [];
  return em.nativeDelete(MessageJob, { $or: [{ userId: to.userId }, ...byAddress] });
}
