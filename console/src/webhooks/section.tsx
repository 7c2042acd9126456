/** The webhook registry (/dashboard/webhooks): the list and one webhook's page with its deliveries. */
import { IconWebhook } from '@tabler/icons-react';
import type { ConsoleSection } from '../shell/section.ts';
import { WebhooksPage } from './webhooks-page.tsx';
import { WebhookPage } from './webhook-page.tsx';
import { webhooksEn } from './i18n-en.ts';

export const webhooksSection: ConsoleSection = {
  path: 'webhooks',
  routes: [
    { path: 'webhooks', element: <WebhooksPage /> },
    { path: 'webhooks/:webhookId', element: <WebhookPage /> },
  ],
  nav: { labelKey: 'webhooks:nav', icon: IconWebhook },
  messages: [{ namespace: 'webhooks', catalogues: { en: webhooksEn } }],
};
