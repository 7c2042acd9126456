/** The stored email templates (/dashboard/email-templates): one row per event, one editor per event. */
import { IconMail } from '@tabler/icons-react';
import type { ConsoleSection } from '../shell/section.ts';
import { EmailTemplatesPage } from './email-templates-page.tsx';
import { EmailTemplatePage } from './email-template-page.tsx';
import { emailTemplatesEn } from './i18n-en.ts';

export const emailTemplatesSection: ConsoleSection = {
  path: 'email-templates',
  routes: [
    { path: 'email-templates', element: <EmailTemplatesPage /> },
    { path: 'email-templates/:event', element: <EmailTemplatePage /> },
  ],
  nav: { labelKey: 'emailTemplates:nav', icon: IconMail },
  messages: [{ namespace: 'emailTemplates', catalogues: { en: emailTemplatesEn } }],
};
