/**
 * The console's sections, in navbar order; the API reference next to the playground, which is there only
 * with --enable-playground.
 */
import type { ComponentType } from 'react';
import { IconAdjustments, IconApps, IconBook, IconBuilding, IconCode, IconHierarchy3, IconListDetails, IconMail, IconMailCheck, IconUsers, IconWebhook } from '@tabler/icons-react';

export interface NavItem {
  to: string;
  labelKey: string;
  icon: ComponentType<{ size?: number; stroke?: number }>;
}

export function navItems(playground: boolean): NavItem[] {
  const items: NavItem[] = [
    { to: '/users', labelKey: 'nav.users', icon: IconUsers },
    { to: '/organizations', labelKey: 'organizations:nav', icon: IconBuilding },
    { to: '/verification-requests', labelKey: 'nav.verificationRequests', icon: IconMailCheck },
    { to: '/clients', labelKey: 'clients:nav', icon: IconApps },
    { to: '/fga', labelKey: 'nav.fga', icon: IconHierarchy3 },
    { to: '/webhooks', labelKey: 'webhooks:nav', icon: IconWebhook },
    { to: '/email-templates', labelKey: 'emailTemplates:nav', icon: IconMail },
    { to: '/audit-log', labelKey: 'audit:nav', icon: IconListDetails },
    { to: '/settings', labelKey: 'nav.settings', icon: IconAdjustments },
    { to: '/api-reference', labelKey: 'apiReference:nav', icon: IconBook },
  ];
  if (playground) items.push({ to: '/playground', labelKey: 'nav.playground', icon: IconCode });
  return items;
}
