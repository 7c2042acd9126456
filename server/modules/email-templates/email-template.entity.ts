import { defineEntity, p } from '@mikro-orm/core';

/**
 * A stored email template (docs/api-overview.md#resources-and-fields, "EmailTemplate": event_name, subject, template, design). At most one
 * per event: the unique index settles two concurrent adds at the database. It overrides the built-in template
 * of its event when mail is sent (email/template-overrides.ts, template-cache.ts).
 */
export const EmailTemplate = defineEntity({
  name: 'EmailTemplate',
  tableName: 'email_templates',
  properties: {
    id: p.string().primary().length(36),
    eventName: p.string().length(64).unique(),
    subject: p.string().length(1024),
    /** HTML with placeholders (email/render-template.ts), checked when saved (template-check.ts). */
    template: p.text(),
    /** The console editor's JSON, kept as given; never rendered. May be empty. */
    design: p.text(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});

export type EmailTemplateRow = InstanceType<typeof EmailTemplate.class>;
