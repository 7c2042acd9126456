/** The instance settings (/dashboard/settings). Its text is in the default namespace. */
import { IconAdjustments } from '@tabler/icons-react';
import type { ConsoleSection } from '../shell/section.ts';
import { SettingsPage } from './settings-page.tsx';

export const settingsSection: ConsoleSection = {
  path: 'settings',
  routes: [{ path: 'settings', element: <SettingsPage /> }],
  nav: { labelKey: 'nav.settings', icon: IconAdjustments },
};
