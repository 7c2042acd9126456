/**
 * The OAuth clients section (/dashboard/clients): the registry and one client's page. The client page carries
 * the trusted issuers card (console/src/trusted-issuers), the device grant card (console/src/device-grant) and the
 * back-channel logout card (console/src/backchannel-logout), so their namespaces "issuers", "deviceGrant" and
 * "backchannel" come with this section.
 */
import { IconApps } from '@tabler/icons-react';
import type { ConsoleSection } from '../shell/section.ts';
import { issuersEn } from '../trusted-issuers/i18n-en.ts';
import { deviceGrantEn } from '../device-grant/i18n-en.ts';
import { backchannelEn } from '../backchannel-logout/i18n-en.ts';
import { ClientsPage } from './clients-page.tsx';
import { ClientPage } from './client-page.tsx';
import { clientsEn } from './i18n-en.ts';

export const clientsSection: ConsoleSection = {
  path: 'clients',
  routes: [
    { path: 'clients', element: <ClientsPage /> },
    { path: 'clients/:clientId', element: <ClientPage /> },
  ],
  nav: { labelKey: 'clients:nav', icon: IconApps },
  messages: [
    { namespace: 'clients', catalogues: { en: clientsEn } },
    { namespace: 'issuers', catalogues: { en: issuersEn } },
    { namespace: 'deviceGrant', catalogues: { en: deviceGrantEn } },
    { namespace: 'backchannel', catalogues: { en: backchannelEn } },
  ],
};
