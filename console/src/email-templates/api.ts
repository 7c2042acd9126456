/**
 * The stored email templates' server calls (specification part 4.2; reference.md "EmailTemplate"):
 * `_email_templates`, `_add_email_template`, `_update_email_template`, `_delete_email_template` and
 * `_preview_email_template` (server/modules/email-templates/email-templates.ops.ts). One template per event;
 * an event without one sends the built-in mail.
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { graphql } from '../../../ui-shared/graphql-client.ts';
import type { MessageAnswer } from '../api/types.ts';

/** reference.md "Email template events" (server/modules/email/email-events.ts). */
export const EMAIL_EVENTS = ['basic_auth_signup', 'magic_link_login', 'update_email', 'forgot_password', 'invite_member', 'verify_otp'] as const;
export type EmailEvent = (typeof EMAIL_EVENTS)[number];

export function isEmailEvent(name: string): name is EmailEvent {
  return (EMAIL_EVENTS as readonly string[]).includes(name);
}

export interface EmailTemplate {
  id: string;
  event_name: string;
  subject: string;
  template: string;
  design: string;
  created_at: number;
  updated_at: number;
}

export interface EmailPreview {
  subject: string;
  html: string;
}

export const templateKeys = {
  all: ['email-templates'] as const,
  list: () => [...templateKeys.all, 'list'] as const,
  preview: (event: string, subject: string, template: string) => [...templateKeys.all, 'preview', event, subject, template] as const,
};

/** At most one per event, so one page of 50 holds them all. */
export function useEmailTemplates() {
  return useQuery({
    queryKey: templateKeys.list(),
    queryFn: async ({ signal }) => {
      const query = `query EmailTemplates($params: EmailTemplatesRequest!) { _email_templates(params: $params) {
        email_templates { id event_name subject template design created_at updated_at } } }`;
      type Answer = { _email_templates: { email_templates: EmailTemplate[] } };
      return (await graphql<Answer>(query, { params: { pagination: { page: 1, limit: 50 } } }, signal))._email_templates.email_templates;
    },
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
    queryFn: async ({ signal }) => {
      const query = `query PreviewEmailTemplate($params: PreviewEmailTemplateRequest!) {
        _preview_email_template(params: $params) { subject html } }`;
      const params = { event_name: event, subject, template };
      return (await graphql<{ _preview_email_template: EmailPreview }>(query, { params }, signal))._preview_email_template;
    },
    enabled: Boolean(subject.trim() && template.trim()),
    placeholderData: keepPreviousData,
    retry: false,
    staleTime: Infinity,
  });
}

export async function addEmailTemplate(fields: { event_name: string; subject: string; template: string }): Promise<MessageAnswer> {
  const mutation = 'mutation AddEmailTemplate($params: AddEmailTemplateRequest!) { _add_email_template(params: $params) { message } }';
  return (await graphql<{ _add_email_template: MessageAnswer }>(mutation, { params: fields }))._add_email_template;
}

export async function updateEmailTemplate(id: string, fields: { subject: string; template: string }): Promise<MessageAnswer> {
  const mutation = 'mutation UpdateEmailTemplate($params: UpdateEmailTemplateRequest!) { _update_email_template(params: $params) { message } }';
  return (await graphql<{ _update_email_template: MessageAnswer }>(mutation, { params: { id, ...fields } }))._update_email_template;
}

export async function deleteEmailTemplate(id: string): Promise<MessageAnswer> {
  const mutation = 'mutation DeleteEmailTemplate($params: DeleteEmailTemplateRequest!) { _delete_email_template(params: $params) { message } }';
  return (await graphql<{ _delete_email_template: MessageAnswer }>(mutation, { params: { id } }))._delete_email_template;
}
