import { defineEntity, p } from '@mikro-orm/core';

/**
 * A registered client that got tokens in a session (§2.7: the OP notifies "each RP that the user is logged
 * into"). Written when a code is redeemed; read when the session ends.
 */
export const SessionClient = defineEntity({
  name: 'SessionClient',
  tableName: 'oauth_session_clients',
  properties: {
    /** sessions.id and clients.client_id, joined by a space (neither contains one). */
    id: p.string().primary().length(140),
    sessionId: p.string().length(64).index(),
    clientId: p.string().length(64),
    createdAt: p.datetime().index(),
  },
});

/**
 * One logout token to deliver (§2.5): the durable outbox row, written in the transaction that ended the
 * session, sent by worker.ts with retries until a 200 or 204 (§2.8) or the last attempt.
 */
export const BackchannelLogoutDelivery = defineEntity({
  name: 'BackchannelLogoutDelivery',
  tableName: 'oauth_backchannel_logout_deliveries',
  properties: {
    id: p.string().primary().length(36),
    clientId: p.string().length(64),
    uri: p.string().length(2048),
    userId: p.string().length(36),
    /** The sid claim (sidOf of the session). */
    sid: p.string().length(64),
    /** pending, sending (claimed until leaseUntil) or failed. */
    status: p.string().length(16),
    attempts: p.integer(),
    nextAttemptAt: p.datetime().index(),
    leaseUntil: p.datetime().nullable(),
    createdAt: p.datetime(),
  },
});

export type BackchannelLogoutDeliveryRow = InstanceType<typeof BackchannelLogoutDelivery.class>;
