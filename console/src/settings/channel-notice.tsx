/**
 * Tells the administrator which outgoing channel is missing and the flags that configure it. Without SMTP
 * no invitation, reset link, magic link or email code can be sent, and the login page stops offering them
 * (meta is_email_service_enabled); without the SMS provider the same holds for texted codes. Shown above
 * every console page, so the first page after signing in says it.
 */
import { Alert, Code, Stack, Text } from '@mantine/core';
import { IconMailOff } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useAdminMeta } from '../api/queries.ts';

export function ChannelNotice() {
  const { t } = useTranslation();
  const meta = useAdminMeta();
  if (!meta.data || meta.data.is_email_service_enabled !== false) return null;
  return (
    <Alert color="yellow" variant="light" icon={<IconMailOff size={18} />} title={t('channels.emailMissingTitle')} mb="lg" data-testid="email-not-configured">
      <Stack gap={4}>
        <Text size="sm">{t('channels.emailMissingBody')}</Text>
        <Text size="sm">
          {t('channels.emailMissingFix')} <Code>--smtp-host</Code> <Code>--smtp-sender-email</Code> ({t('channels.emailMissingAuth')} <Code>--smtp-username</Code> <Code>--smtp-password</Code>)
        </Text>
      </Stack>
    </Alert>
  );
}
