/**
 * Stored email templates (docs/api-overview.md#resources-and-fields, "EmailTemplate", "Email template events"): the admin operations, the
 * save-time checks and the cached lookup the mail worker reads (wired in app.ts as Deps.templateOverrides).
 */
import { defineModule, defineService } from '../manifest.ts';
import { createCachedTemplateLookup as cachedTemplates } from './template-cache.ts';
import { EmailTemplate } from './email-template.entity.ts';
import { emailTemplateOperations } from './email-templates.ops.ts';

export { EmailTemplate, type EmailTemplateRow } from './email-template.entity.ts';
export { createCachedTemplateLookup, TEMPLATE_CACHE_TTL_MS, type CachedTemplateLookup } from './template-cache.ts';
export { checkTemplate, PLACEHOLDERS } from './template-check.ts';

export const emailTemplatesModule = defineModule({
  name: 'email-templates',
  entities: [EmailTemplate],
  operations: emailTemplateOperations,
  // Stored templates override the built-in ones when the worker sends (docs/events.md).
  services: [defineService({ key: 'templateOverrides', create: (deps) => cachedTemplates(deps.storage) })],
});
