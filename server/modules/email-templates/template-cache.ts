/**
 * The storage-backed TemplateOverrideLookup (email/template-overrides.ts) the mail worker uses: all stored
 * templates (at most one per event, so at most six rows) are read in one query and kept for a few seconds,
 * so a burst of mails costs one read. A write on this instance drops the copy once it is committed
 * (email-templates.ops.ts); another instance sees the change when its copy expires.
 */
import type { EntityManager } from '@mikro-orm/core';
import type { Storage } from '../../storage/types.ts';
import type { EmailEvent, EmailTemplate as RenderableTemplate, TemplateOverrideLookup } from '../email/index.ts';
import { EmailTemplate } from './email-template.entity.ts';

export const TEMPLATE_CACHE_TTL_MS = 5_000;

/** A lookup that can be told its copy is stale. */
export type CachedTemplateLookup = TemplateOverrideLookup & { invalidate(): void };

// Deps gets the member from this module (the kernel imports nothing of the app, docs/architecture.md). The name is
// EmailDeps' own, so `{ ...deps, mailer }` in the message worker hands it to sendTemplatedEmail unchanged.
declare module '../../kernel/deps.ts' {
  interface Deps {
    /** Stored email templates; absent in a Deps built without them (every event then uses its built-in). */
    readonly templateOverrides?: CachedTemplateLookup;
  }
}

type Copy = ReadonlyMap<string, RenderableTemplate>;

async function readAll(em: EntityManager): Promise<Copy> {
  const rows = await em.find(EmailTemplate, {}, { disableIdentityMap: true });
  // A stored template has HTML only (docs/api-overview.md#resources-and-fields, "EmailTemplate"): no plain-text alternative is sent.
  return new Map(rows.map((row) => [row.eventName, { subject: row.subject, html: row.template }]));
}

export function createCachedTemplateLookup(storage: Pick<Storage, 'fork'>, ttlMs = TEMPLATE_CACHE_TTL_MS): CachedTemplateLookup {
  let copy: Promise<Copy> | undefined;
  let expiresAt = 0;
  let generation = 0;
  const lookup = async (event: EmailEvent): Promise<RenderableTemplate | undefined> => {
    if (!copy || performance.now() >= expiresAt) {
      const started = generation;
      const reading = readAll(storage.fork());
      copy = reading;
      expiresAt = performance.now() + ttlMs;
      // A failed read is not kept: the next mail asks again (the worker retries the failed one).
      reading.catch(() => {
        if (copy === reading && generation === started) copy = undefined;
      });
    }
    return (await copy).get(event);
  };
  return Object.assign(lookup, {
    invalidate() {
      generation += 1;
      copy = undefined;
    },
  });
}
