/** Turning a webhook on or off in place (`_update_webhook` with `enabled` only; the rest stays). */
import { Switch } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useAdminMutation } from '../common/use-admin-mutation.ts';
import { updateWebhook, webhookKeys, type Webhook } from './api.ts';

export function WebhookEnabledSwitch({ webhook, withLabel }: { webhook: Webhook; withLabel?: boolean }) {
  const { t } = useTranslation('webhooks');
  const toggle = useAdminMutation({
    mutationFn: (enabled: boolean) => updateWebhook(webhook.id, { enabled }),
    invalidates: [webhookKeys.all],
    successMessage: () => (webhook.enabled ? t('disabledNow') : t('enabledNow')),
  });
  // While the change is on its way the switch shows where it is going, not where it was.
  const checked = toggle.isPending ? Boolean(toggle.variables) : webhook.enabled;
  return (
    <Switch
      checked={checked}
      disabled={toggle.isPending}
      onChange={(event) => toggle.mutate(event.currentTarget.checked)}
      label={withLabel ? t(checked ? 'status.enabled' : 'status.disabled') : undefined}
      aria-label={t('enabledLabel', { event: webhook.event_name, endpoint: webhook.endpoint })}
    />
  );
}
