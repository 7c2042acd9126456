/** The audit log (/dashboard/audit-log). */
import { IconListDetails } from '@tabler/icons-react';
import type { ConsoleSection } from '../shell/section.ts';
import { AuditLogPage } from './audit-log-page.tsx';
import { auditEn } from './i18n-en.ts';

export const auditSection: ConsoleSection = {
  path: 'audit-log',
  routes: [{ path: 'audit-log', element: <AuditLogPage /> }],
  nav: { labelKey: 'audit:nav', icon: IconListDetails },
  messages: [{ namespace: 'audit', catalogues: { en: auditEn } }],
};
