/**
 * The durable outbox of account mails and texts: operations enqueue (enqueue.ts) in their transaction,
 * the worker (worker.ts) sends after the commit with retries, and nothing is sent inside a request. The
 * accounts manifest declares the worker, since it hands the worker its delivery function from above this
 * layer (docs/architecture.md#module-layers).
 */
import { defineModule } from '../manifest.ts';
import { MessageJob } from './message-job.entity.ts';

export { MessageJob, type MessageJobRow, type MessageOptions } from './message-job.entity.ts';
export { enqueueMessage, normaliseDestination, type MessageRequest } from './enqueue.ts';
export { deleteMessagesFor } from './erase.ts';
export { requireChannel, LINK_FLOWS, CODE_FLOWS, MFA_CODE_FLOW, MFA_LOCK_FLOW, type LinkFlow, type CodeFlow, type Channel } from './flows.ts';
export {
  createMessageOutbox, retryDelayMs, DEFAULT_OUTBOX_OPTIONS, type MessageOutbox, type OutboxOptions, type DeliveryDeps, type DeliverMessage,
} from './worker.ts';

export const messagesModule = defineModule({ name: 'messages', entities: [MessageJob] });
