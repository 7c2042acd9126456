/** The API reference (/dashboard/api-reference), whose page is fetched when it opens (index.tsx). */
import { IconBook } from '@tabler/icons-react';
import type { ConsoleSection } from '../shell/section.ts';
import { ApiReferenceRoute } from './index.tsx';
import { apiReferenceEn } from './i18n-en.ts';

export const apiReferenceSection: ConsoleSection = {
  path: 'api-reference',
  routes: [{ path: 'api-reference', element: <ApiReferenceRoute /> }],
  nav: { labelKey: 'apiReference:nav', icon: IconBook },
  messages: [{ namespace: 'apiReference', catalogues: { en: apiReferenceEn } }],
};
