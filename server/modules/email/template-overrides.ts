/**
 * The seam for stored templates (docs/events.md: a stored template for an event overrides the
 * built-in one). The table and its admin operations come in a later issue; until then no lookup is
 * wired and every event falls back to its built-in template.
 */
import type { EntityManager } from '@mikro-orm/core';
import type { EmailEvent } from './email-events.ts';
import { BUILT_IN_TEMPLATES, type EmailTemplate } from './built-in-templates.ts';

/** Answers the stored template of an event, or undefined when there is none. */
export type TemplateOverrideLookup = (event: EmailEvent, em: EntityManager | undefined) => Promise<EmailTemplate | undefined>;

export const noTemplateOverrides: TemplateOverrideLookup = async () => undefined;

export async function resolveTemplate(
  event: EmailEvent,
  lookup: TemplateOverrideLookup = noTemplateOverrides,
  em?: EntityManager,
): Promise<EmailTemplate> {
  return (await lookup(event, em)) ?? BUILT_IN_TEMPLATES[event];
}
