/**
 * The stored email templates' server calls (docs/operations.md; docs/api-overview.md#resources-and-fields, "EmailTemplate"):
 * `_email_templates`, `_add_email_template`, `_update_email_template`, `_delete_email_template` and
 * `_preview_email_template` (server/modules/email-templates/email-templates.ops.ts). One template per event;
 * an event without one sends the built-in mail.
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { call, type Input, type Output } from '../../../ui-shared/contract/call.ts';
import { EMAIL_EVENTS, type EmailEvent } from '../../../ui-shared/contract/constants.ts';
import type { MessageAnswer } from '../api/types.ts';

/** docs/events.md#email-template-events, the server's own list. */
export { EMAIL_EVENTS, type EmailEvent };

export function isEmailEvent(name: string): name is EmailEvent {
  return (EMAIL_EVENTS as readonly string[]).includes(name);
}

export type EmailTemplate = Output<'email_templates'>['email_templates'][number];

export type EmailPreview = Output<'preview_email_template'>;

export const templateKeys = {
  all: ['email-templates'] as const,
  list: () => [...templateKeys.all, 'list'] as const,
  preview: (event: string, subject: string, template: string) => [...templateKeys.all, 'preview', event, subject, template] as const,
};

/** At most one per event, so one page of 50 holds them all. */
export function useEmailTemplates() {
  return useQuery({
    queryKey: templateKeys.list(),
    queryFn: async ({ signal }) => (await call('email_templates', { pagination: { page: 1, limit: 50 } }, signal)).email_templates,
  });
}

/**
 * The draft rendered by the server with sample values (its HTML goes only into a sandboxed frame). A draft
 * the server refuses (unknown placeholder, syntax error, no link or code) answers the server's message as
 * the query's error. The previous preview stays while the next one renders.
 */
export function useEmailPreview(event: string, subject: string, template: string) {
  return useQuery({
    queryKey: templateKeys.preview(event, subject, template),
    queryFn: ({ signal }) => call('preview_email_template', { event_name: event, subject, template }, signal),
    enabled: Boolean(subject.trim() && template.trim()),
    placeholderData: keepPreviousData,
    retry: false,
    staleTime: Infinity,
  });
}

export async function addEmailTemplate(fields: Input<'add_email_template'>): Promise<MessageAnswer> {
  return call('add_email_template', fields);
}

export async function updateEmailTemplate(id: string, fields: { subject: string; template: string }): Promise<MessageAnswer> {
  return call('update_email_template', { id, ...fields });
}

export async function deleteEmailTemplate(id: string): Promise<MessageAnswer> {
  return call('delete_email_template', { id });
}
