/**
 * One console section as a value: its URL, its routes, its navbar entry and its own text catalogue. The
 * console's router, navbar and i18n resources are all derived from the list in console/src/sections.ts
 * (docs/architecture.md#console-sections-and-login-screens).
 *
 * To add a section:
 *   1. Write its folder under console/src/ (pages, api.ts, i18n-en.ts for its own namespace if it has one).
 *   2. End the folder with a `section.tsx` that exports a `ConsoleSection` (users/section.tsx is a small one).
 *   3. Add that value to `CONSOLE_SECTIONS` in console/src/sections.ts, at the place its navbar entry goes.
 * Nothing else is edited: app.tsx, the shell and console/src/i18n read the list.
 */
import type { ComponentType } from 'react';
import type { RouteObject } from 'react-router';
import type { Branding } from '../../../ui-shared/branding.ts';

/** A catalogue: nested message keys (i18next resource), e.g. `clientsEn` of console/src/clients/i18n-en.ts. */
export type MessageCatalogue = { readonly [key: string]: string | MessageCatalogue };

export interface SectionMessages {
  /** The i18next namespace the section's components read with `useTranslation(namespace)`. */
  namespace: string;
  /** One catalogue per language; English is the fallback (ui-shared/i18n.ts). A translation adds a key. */
  catalogues: { en: MessageCatalogue } & { readonly [language: string]: MessageCatalogue };
}

export interface SectionNav {
  /** The i18next key of the label, with its namespace prefix unless it is the default one ("clients:nav", "nav.users"). */
  labelKey: string;
  icon: ComponentType<{ size?: number; stroke?: number }>;
}

export interface ConsoleSection {
  /**
   * The section's URL under /dashboard without a leading slash ("users"): where its navbar entry links, and the
   * entry is marked current on that path and on every path below it.
   */
  path: string;
  /** Its routes, children of the signed-in shell, paths relative to /dashboard ("users", "users/:userId"). */
  routes: RouteObject[];
  /** Its navbar entry; a section without one is reached only by links. */
  nav?: SectionNav;
  /** Its own namespaces; text in the console's default namespace stays in console/src/i18n/en.ts. */
  messages?: readonly SectionMessages[];
  /** Whether the instance shows the section at all (routes and navbar entry); always, when absent. Its messages load regardless. */
  enabled?: (branding: Branding) => boolean;
}

/** The sections this instance shows, in list order. */
export function enabledSections(sections: readonly ConsoleSection[], branding: Branding): ConsoleSection[] {
  return sections.filter((section) => section.enabled?.(branding) ?? true);
}
