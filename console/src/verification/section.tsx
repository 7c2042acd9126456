/** The pending verification requests (/dashboard/verification-requests). Its text is in the default namespace. */
import { IconMailCheck } from '@tabler/icons-react';
import type { ConsoleSection } from '../shell/section.ts';
import { VerificationRequestsPage } from './verification-requests-page.tsx';

export const verificationSection: ConsoleSection = {
  path: 'verification-requests',
  routes: [{ path: 'verification-requests', element: <VerificationRequestsPage /> }],
  nav: { labelKey: 'nav.verificationRequests', icon: IconMailCheck },
};
