/** The organizations section (/dashboard/organizations): the list and one organization's page. */
import { IconBuilding } from '@tabler/icons-react';
import type { ConsoleSection } from '../shell/section.ts';
import { OrganizationsPage } from './organizations-page.tsx';
import { OrganizationPage } from './organization-page.tsx';
import { organizationsEn } from './i18n-en.ts';

export const organizationsSection: ConsoleSection = {
  path: 'organizations',
  routes: [
    { path: 'organizations', element: <OrganizationsPage /> },
    { path: 'organizations/:organizationId', element: <OrganizationPage /> },
  ],
  nav: { labelKey: 'organizations:nav', icon: IconBuilding },
  messages: [{ namespace: 'organizations', catalogues: { en: organizationsEn } }],
};
