/**
 * Erasure of an account (docs/privacy.md#what-erasure-does; accounts' onAccountErased): which clients got
 * tokens in its sessions, and its logout deliveries, queued or finished. Its sessions are deleted, not
 * ended, so no logout token is sent for them: the clients' tokens fail at introspection and /userinfo at
 * once, and a delivery kept to send one would keep the account's id after its erasure.
 */
import type { EntityManager } from '@mikro-orm/core';
import { Session } from '../../sessions/index.ts';
import { BackchannelLogoutDelivery, SessionClient } from './backchannel.entity.ts';

export async function eraseBackchannelRows(em: EntityManager, userId: string): Promise<void> {
  const sessionIds = (await em.find(Session, { userId }, { fields: ['id'] })).map((session) => session.id);
  for (let i = 0; i < sessionIds.length; i += 500) await em.nativeDelete(SessionClient, { sessionId: { $in: sessionIds.slice(i, i + 500) } });
  await em.nativeDelete(BackchannelLogoutDelivery, { userId });
}
