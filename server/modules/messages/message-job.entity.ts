import { defineEntity, p } from '@mikro-orm/core';

/**
 * One account message waiting to leave (an emailed link, a texted code): the durable outbox of
 * messages/worker.ts. A row is written in the transaction of the operation that asks for the message, so
 * it exists exactly when that operation committed, and a crash or a second instance cannot lose it.
 *
 * No secret is ever stored here: the row names the flow, the destination and the redirect_uri; the worker
 * creates the link token or the code when it sends (OWASP ASVS 2.5.x / 3.x: secrets only in transit).
 * A delivered row is deleted; a row that exhausted its attempts stays with status `failed`.
 */
export const MessageJob = defineEntity({
  name: 'MessageJob',
  tableName: 'message_outbox',
  properties: {
    id: p.string().primary().length(36),
    /** email or sms. */
    channel: p.string().length(8),
    /** The email event (email-events.ts) or the code purpose (verify_otp, forgot_password). */
    flow: p.string().length(32),
    /** Normalised email address or phone number. */
    destination: p.string().length(255),
    /** Set when the operation already knows the account (signup, update_email, invitations). */
    userId: p.string().length(36).nullable(),
    /** Checked against the allowed redirects when the operation ran. */
    redirectUri: p.text().nullable(),
    /** Flow options the worker needs (magic link: create the account, roles asked for). */
    options: p.json<MessageOptions>().nullable(),
    /** pending, sending (claimed until leaseUntil) or failed. */
    status: p.string().length(16),
    attempts: p.integer(),
    nextAttemptAt: p.datetime().index(),
    leaseUntil: p.datetime().nullable(),
    /** Why the last attempt failed, without secrets (no address, token, code or credential). */
    lastError: p.string().length(255).nullable(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});

export interface MessageOptions {
  /** magic_link_login: an unknown address gets an account when --enable-signup is on. */
  createAccount?: boolean;
  roles?: string[];
}

export type MessageJobRow = InstanceType<typeof MessageJob.class>;
