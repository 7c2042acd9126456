/**
 * The request side of the message outbox. An operation that wants a message sent only validates, checks
 * that the channel is configured, counts the destination's allowance, and writes a MessageJob in its own
 * transaction; the worker (worker.ts) does the rest after the commit. For the flows a stranger can start
 * (forgot_password, resend_verify_email, magic_link_login) the job carries the address only: whether the
 * account exists is decided by the worker, so a request for a known and an unknown address runs the same
 * statements and answers the same (OWASP ASVS 2.5.x).
 */
import { randomUUID } from 'node:crypto';
import type { HandlerContext } from '../../ops/define.ts';
import { normaliseEmail, normalisePhoneNumber } from '../users/index.ts';
import { MessageJob, type MessageOptions } from './message-job.entity.ts';
import { requireChannel, type Channel, type CodeFlow, type LinkFlow, type MFA_CODE_FLOW, type MFA_LOCK_FLOW } from './flows.ts';

export type MessageRequest =
  | { channel: 'email'; flow: LinkFlow; to: string; userId?: string; redirectUri?: string; options?: MessageOptions }
  | { channel: 'sms'; flow: CodeFlow; to: string; userId?: string }
  | { channel: Channel; flow: typeof MFA_CODE_FLOW | typeof MFA_LOCK_FLOW; to: string; userId: string };

export function normaliseDestination(channel: Channel, to: string): string {
  return channel === 'email' ? normaliseEmail(to) : normalisePhoneNumber(to);
}

/** Queues one message in the operation's unit of work (flushed now, committed with the operation). */
export async function enqueueMessage(ctx: HandlerContext, request: MessageRequest): Promise<void> {
  const { config, clock, limits } = ctx.deps;
  requireChannel(config, ctx.log, request.channel, request.flow);
  const destination = normaliseDestination(request.channel, request.to);
  // Mails and texts per destination and flow (bucket message_destination): the same count, and the same
  // 429, whether or not an account has that address, so the limit reveals nothing either.
  await limits.consume('message_destination', `${request.flow}:${destination}`);
  const now = clock.now();
  const row = ctx.em.create(MessageJob, {
    id: randomUUID(),
    channel: request.channel,
    flow: request.flow,
    destination,
    userId: request.userId ?? null,
    redirectUri: ('redirectUri' in request ? request.redirectUri : undefined) || null,
    options: ('options' in request ? request.options : undefined) ?? null,
    status: 'pending',
    attempts: 0,
    nextAttemptAt: now,
    leaseUntil: null,
    lastError: null,
    createdAt: now,
    updatedAt: now,
  });
  ctx.em.persist(row);
  await ctx.em.flush();
  // Wake the worker once the row is committed; the poll finds it anyway if this instance stops first. The
  // wake waits for the event loop's check phase, after the answer has been written: a pass that starts at
  // once runs on this thread while the answer is still being serialised, and its work differs for a known
  // and an unknown address (the link, the template), which would show in the answer's time (OWASP ASVS
  // 2.5.x: no account enumeration, time included).
  ctx.afterCommit(async () => void setImmediate(() => ctx.deps.outbox?.wake()));
}
