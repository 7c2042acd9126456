/**
 * Which registered clients got tokens in which session, and the logout deliveries a session's end queues
 * (OpenID Connect Back-Channel Logout 1.0 §2.7): each such client that registered a backchannel_logout_uri
 * gets one delivery row, written in the transaction that ended the session (the durable outbox pattern).
 */
import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/core';
import type { EndedSession } from '../../sessions/index.ts';
import { BackchannelLogoutClient, Client, backchannelRegistrationFrom } from '../../clients/index.ts';
import { sidOf } from '../../tokens/index.ts';
import { BackchannelLogoutDelivery, SessionClient } from './backchannel.entity.ts';

/** Remembers that `clientId` (a registered client) got tokens in the session; once per pair. */
export async function rememberSessionClient(em: EntityManager, now: Date, sessionId: string, clientId: string): Promise<void> {
  const id = `${sessionId} ${clientId}`;
  if (await em.findOne(SessionClient, { id })) return;
  em.persist(em.create(SessionClient, { id, sessionId, clientId, createdAt: now }));
}

/** onSessionsEnded: one delivery per (ended session, client with a backchannel_logout_uri that got tokens in it). */
export async function queueBackchannelLogouts(em: EntityManager, now: Date, sessions: EndedSession[]): Promise<void> {
  const userOf = new Map(sessions.map((session) => [session.id, session.userId]));
  const pairs = await em.find(SessionClient, { sessionId: { $in: [...userOf.keys()] } });
  if (pairs.length === 0) return;
  const clients = await em.find(Client, { clientId: { $in: [...new Set(pairs.map((pair) => pair.clientId))] } });
  const registrations = await em.find(BackchannelLogoutClient, { id: { $in: clients.map((client) => client.id) } });
  const rowOf = new Map(registrations.map((row) => [row.id, row]));
  const uriByClientId = new Map(clients.map((client) => [client.clientId, backchannelRegistrationFrom(client, rowOf.get(client.id))?.uri]));
  for (const pair of pairs) {
    const uri = uriByClientId.get(pair.clientId);
    if (!uri) continue;
    em.persist(em.create(BackchannelLogoutDelivery, {
      id: randomUUID(), clientId: pair.clientId, uri, userId: userOf.get(pair.sessionId)!, sid: sidOf(pair.sessionId),
      status: 'pending', attempts: 0, nextAttemptAt: now, leaseUntil: null, createdAt: now,
    }));
  }
  await em.nativeDelete(SessionClient, { sessionId: { $in: [...userOf.keys()] } });
  await em.flush();
}
