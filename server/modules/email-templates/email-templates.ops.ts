/**
 * Admin operations on stored email templates (docs/operations.md#add_email_template,
 * `update_email_template`, `delete_email_template`, `email_templates`) and `preview_email_template`, which
 * renders a draft with sample values for the console. At most one template per event (already_exists);
 * every saved template passes template-check.ts first. A write drops the mail worker's cached copy once it
 * is committed (template-cache.ts), and the one pipeline records it in the audit log (admin-audit.ts).
 */
import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/core';
import { defineOperation, type HandlerContext } from '../../ops/define.ts';
import { MessageResponse } from '../../ops/schema.ts';
import { paginate } from '../../ops/pagination.ts';
import { AppError } from '../../kernel/errors.ts';
import { isUniqueViolation } from '../../storage/errors.ts';
import { EMAIL_EVENTS, isEmailEvent, type EmailEvent } from '../email/index.ts';
import { EmailTemplate, type EmailTemplateRow } from './email-template.entity.ts';
import { checkTemplate } from './template-check.ts';
import { previewTemplate } from './template-preview.ts';
import {
  AddEmailTemplateRequest, DeleteEmailTemplateRequest, EmailTemplatePreview, EmailTemplates, EmailTemplatesRequest,
  MAX_TEMPLATE_LENGTH, PreviewEmailTemplateRequest, UpdateEmailTemplateRequest, toPublicEmailTemplate,
} from './email-templates.schema.ts';

function checkedEvent(name: string): EmailEvent {
  if (!isEmailEvent(name)) throw AppError.invalid(`event_name: expected one of ${EMAIL_EVENTS.join(', ')}`);
  return name;
}

/** A TEXT column's limit on MySQL and MariaDB is in bytes, not characters. */
function checkedBytes(value: string, field: string): string {
  if (Buffer.byteLength(value, 'utf8') > 65_535) throw AppError.invalid(`${field}: at most 65,535 bytes of UTF-8 (about ${MAX_TEMPLATE_LENGTH} characters)`);
  return value;
}

function alreadyExists(event: string): AppError {
  return new AppError('already_exists', `an email template for ${event} already exists; update it instead`);
}

async function requireFreeEvent(em: EntityManager, event: string, exceptId?: string): Promise<void> {
  const existing = await em.findOne(EmailTemplate, { eventName: event });
  if (existing && existing.id !== exceptId) throw alreadyExists(event);
}

/** The unique index settles two concurrent saves for one event. */
async function flushUnique(em: EntityManager, event: string): Promise<void> {
  try {
    await em.flush();
  } catch (err) {
    if (isUniqueViolation(err)) throw alreadyExists(event);
    throw err;
  }
}

function invalidateAfterCommit(ctx: HandlerContext): void {
  ctx.afterCommit(async () => ctx.deps.templateOverrides?.invalidate());
}

async function requireTemplate(em: EntityManager, id: string): Promise<EmailTemplateRow> {
  const row = await em.findOne(EmailTemplate, { id });
  if (!row) throw AppError.notFound('email template not found');
  return row;
}

export const addEmailTemplateOp = defineOperation({
  name: 'add_email_template',
  admin: true,
  kind: 'mutation',
  description: 'Stores the email template of one event; it overrides the built-in one. One template per event',
  input: AddEmailTemplateRequest,
  output: MessageResponse,
  auth: 'admin',
  handler: async (input, ctx) => {
    const event = checkedEvent(input.event_name);
    checkTemplate(event, input.subject, checkedBytes(input.template, 'template'));
    await requireFreeEvent(ctx.em, event);
    const now = ctx.deps.clock.now();
    ctx.em.create(EmailTemplate, {
      id: randomUUID(),
      eventName: event,
      subject: input.subject,
      template: input.template,
      design: checkedBytes(input.design ?? '', 'design'),
      createdAt: now,
      updatedAt: now,
    });
    await flushUnique(ctx.em, event);
    invalidateAfterCommit(ctx);
    return { message: 'email template added successfully' };
  },
});

export const updateEmailTemplateOp = defineOperation({
  name: 'update_email_template',
  admin: true,
  kind: 'mutation',
  description: 'Changes a stored email template; omitted fields stay',
  input: UpdateEmailTemplateRequest,
  output: MessageResponse,
  auth: 'admin',
  handler: async (input, ctx) => {
    const row = await requireTemplate(ctx.em, input.id);
    const event = checkedEvent(input.event_name ?? row.eventName);
    const subject = input.subject ?? row.subject;
    const template = checkedBytes(input.template ?? row.template, 'template');
    // The event decides what the template must carry, so a changed event re-checks the stored text too.
    checkTemplate(event, subject, template);
    if (event !== row.eventName) await requireFreeEvent(ctx.em, event, row.id);
    row.eventName = event;
    row.subject = subject;
    row.template = template;
    if (input.design !== undefined) row.design = checkedBytes(input.design, 'design');
    row.updatedAt = ctx.deps.clock.now();
    await flushUnique(ctx.em, event);
    invalidateAfterCommit(ctx);
    return { message: 'email template updated successfully' };
  },
});

export const deleteEmailTemplateOp = defineOperation({
  name: 'delete_email_template',
  admin: true,
  kind: 'mutation',
  description: 'Deletes a stored email template; its event goes back to the built-in template',
  input: DeleteEmailTemplateRequest,
  output: MessageResponse,
  auth: 'admin',
  handler: async (input, ctx) => {
    ctx.em.remove(await requireTemplate(ctx.em, input.id));
    await ctx.em.flush();
    invalidateAfterCommit(ctx);
    return { message: 'email template deleted successfully' };
  },
});

export const emailTemplatesOp = defineOperation({
  name: 'email_templates',
  admin: true,
  kind: 'query',
  description: 'Lists stored email templates, newest first',
  input: EmailTemplatesRequest,
  output: EmailTemplates,
  auth: 'admin',
  handler: async (input, ctx) => {
    const page = await paginate(ctx.em, EmailTemplate, {}, input.pagination, { createdAt: 'desc', id: 'asc' });
    return { email_templates: page.items.map(toPublicEmailTemplate), pagination: page.pagination };
  },
});

export const previewEmailTemplateOp = defineOperation({
  name: 'preview_email_template',
  admin: true,
  kind: 'query',
  description: 'Renders a draft template with sample values (the checks of a save apply); nothing is stored or sent',
  input: PreviewEmailTemplateRequest,
  output: EmailTemplatePreview,
  auth: 'admin',
  handler: async (input, ctx) => {
    const event = checkedEvent(input.event_name);
    checkTemplate(event, input.subject, checkedBytes(input.template, 'template'));
    return previewTemplate(ctx.deps.config, event, input.subject, input.template);
  },
});

export const emailTemplateOperations = [
  addEmailTemplateOp, updateEmailTemplateOp, deleteEmailTemplateOp, emailTemplatesOp, previewEmailTemplateOp,
];
