/**
 * Wire shapes of the email template operations (docs/api-overview.md#resources-and-fields, "EmailTemplate": `id`, `event_name`, `template`,
 * `design`, `subject`, `created_at`, `updated_at`; `_add_email_template`: `event_name!`, `subject!`,
 * `template!`, `design?`; update takes `id!` and the rest optional).
 */
import { s, type Static } from '../../ops/schema.ts';
import { Pagination, PaginationRequest } from '../../ops/pagination.ts';
import { unixSeconds } from '../users/index.ts';
import type { EmailTemplateRow } from './email-template.entity.ts';

/**
 * A TEXT column holds 65,535 bytes on MySQL and MariaDB; the service also checks the UTF-8 length. A subject
 * is one header line (RFC 5322 section 2.1.1: at most 998 characters).
 */
export const MAX_TEMPLATE_LENGTH = 60_000;
export const MAX_SUBJECT_LENGTH = 998;

const eventName = s.string({ minLength: 1, maxLength: 64, description: 'basic_auth_signup, magic_link_login, update_email, forgot_password, invite_member or verify_otp' });
const subject = s.string({ minLength: 1, maxLength: MAX_SUBJECT_LENGTH, description: 'one line; placeholders allowed' });
const template = s.string({ minLength: 1, maxLength: MAX_TEMPLATE_LENGTH, multiline: true, description: 'HTML with placeholders; values are HTML-escaped' });
const design = s.string({ maxLength: MAX_TEMPLATE_LENGTH, multiline: true, description: 'the editor JSON, kept as given' });

export const EmailTemplateSchema = s.object('EmailTemplate', {
  id: s.string(),
  event_name: s.string(),
  subject: s.string(),
  template: s.string(),
  design: s.string(),
  created_at: s.int64(),
  updated_at: s.int64(),
});

export const EmailTemplates = s.object('EmailTemplates', {
  email_templates: s.list(EmailTemplateSchema),
  pagination: Pagination,
});

export const AddEmailTemplateRequest = s.object('AddEmailTemplateRequest', {
  event_name: eventName,
  subject,
  template,
  design: s.optional(design),
});

export const UpdateEmailTemplateRequest = s.object('UpdateEmailTemplateRequest', {
  id: s.string({ minLength: 1, maxLength: 64 }),
  event_name: s.optional(eventName),
  subject: s.optional(subject),
  template: s.optional(template),
  design: s.optional(design),
});

export const DeleteEmailTemplateRequest = s.object('DeleteEmailTemplateRequest', {
  id: s.string({ minLength: 1, maxLength: 64 }),
});

export const EmailTemplatesRequest = s.object('EmailTemplatesRequest', {
  pagination: s.optional(PaginationRequest),
});

export const PreviewEmailTemplateRequest = s.object('PreviewEmailTemplateRequest', {
  event_name: eventName,
  subject,
  template,
});

export const EmailTemplatePreview = s.object('EmailTemplatePreview', {
  subject: s.string(),
  html: s.string({ description: 'rendered with sample values; show it in a sandboxed frame' }),
});

export function toPublicEmailTemplate(row: EmailTemplateRow): Static<typeof EmailTemplateSchema> {
  return {
    id: row.id,
    event_name: row.eventName,
    subject: row.subject,
    template: row.template,
    design: row.design,
    created_at: unixSeconds(row.createdAt)!,
    updated_at: unixSeconds(row.updatedAt)!,
  };
}
