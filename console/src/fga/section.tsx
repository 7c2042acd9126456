/**
 * Two sections from this folder: authorization (/dashboard/fga and its tabs below it) and the GraphQL
 * playground (/dashboard/playground), shown only with --enable-playground. Both read the "fga" namespace,
 * which the FGA section brings whether or not the playground is on. The pages load their heavy parts lazily
 * (index.tsx).
 */
import { IconCode, IconHierarchy3 } from '@tabler/icons-react';
import type { ConsoleSection } from '../shell/section.ts';
import { FgaPage, PlaygroundPage } from './index.tsx';
import { fgaEn } from './i18n-en.ts';

export const fgaSection: ConsoleSection = {
  path: 'fga',
  routes: [{ path: 'fga/*', element: <FgaPage /> }],
  nav: { labelKey: 'nav.fga', icon: IconHierarchy3 },
  messages: [{ namespace: 'fga', catalogues: { en: fgaEn } }],
};

export const playgroundSection: ConsoleSection = {
  path: 'playground',
  routes: [{ path: 'playground', element: <PlaygroundPage /> }],
  nav: { labelKey: 'nav.playground', icon: IconCode },
  enabled: (branding) => branding.playground,
};
