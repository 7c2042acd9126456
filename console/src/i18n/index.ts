/**
 * The console's i18n resources: the default namespace "translation" (en.ts: the shell, sign-in and the sections
 * without a catalogue of their own), then each section's own namespaces as its manifest names them
 * (console/src/sections.ts), e.g. "clients" from console/src/clients/i18n-en.ts for `useTranslation('clients')`.
 */
import type { Resource } from 'i18next';
import { en } from './en.ts';
import { CONSOLE_SECTIONS } from '../sections.ts';
import type { ConsoleSection } from '../shell/section.ts';

function consoleResources(sections: readonly ConsoleSection[]): Resource {
  const resources: Resource = { en: { translation: en } };
  for (const { namespace, catalogues } of sections.flatMap((section) => section.messages ?? [])) {
    for (const [language, catalogue] of Object.entries(catalogues)) {
      const namespaces = (resources[language] ??= {});
      // A namespace claimed twice would silently lose one catalogue's keys.
      if (namespace in namespaces) throw new Error(`console: the i18n namespace "${namespace}" is brought by two sections`);
      namespaces[namespace] = catalogue;
    }
  }
  return resources;
}

export const resources = consoleResources(CONSOLE_SECTIONS);
