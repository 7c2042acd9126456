/**
 * `user.deleted` is the one event recorded after its account was erased (docs/privacy.md#what-erasure-does):
 * its payload is the User as it was, owed to the webhooks that listen for it (docs/events.md). It is owed
 * only until it is sent, so what the server keeps of it afterwards names the account by its pseudonym
 * (audit/erased-user.ts) and nothing more: the outbox row once handed to delivery (fan-out.ts), and the log
 * of each attempt (worker.ts). The receivers get the whole payload; the copy a failed delivery keeps for its
 * retries is the delivery's own, and goes when the delivery is deleted.
 */
import type { Config } from '../../config/flags.ts';
import { erasedUserPseudonym } from '../audit/index.ts';

export const ERASURE_EVENT = 'user.deleted';

/** The payload kept once the event is handed over: the pseudonym of the account it named. */
export function erasedEventPayload(config: Pick<Config, 'encryptionKey' | 'jwtSecret'>, payload: Record<string, unknown>): Record<string, unknown> {
  const user = payload.user as { id?: unknown } | undefined;
  const id = typeof user?.id === 'string' ? user.id : '';
  return { user: { id: id ? erasedUserPseudonym(config, id) : '' } };
}

/** The request a delivery log keeps of a `user.deleted` body: its envelope and the pseudonym, not the User. */
export function erasedEventLogBody(config: Pick<Config, 'encryptionKey' | 'jwtSecret'>, body: string): string {
  try {
    const sent = JSON.parse(body) as Record<string, unknown>;
    const { user: _user, ...envelope } = sent;
    return JSON.stringify({ ...envelope, ...erasedEventPayload(config, sent) });
  } catch {
    return '';
  }
}
