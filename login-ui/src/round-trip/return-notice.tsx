/**
 * Names the application the person will be sent to after signing in, so they can tell a genuine request
 * from a link someone sent them (the host comes from the server-vetted redirect_uri).
 */
import { Group, Text } from '@mantine/core';
import { IconArrowBackUp } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { initialRoundTrip, returnHost } from './round-trip.ts';

export function ReturnNotice() {
  const { t } = useTranslation();
  const host = returnHost(initialRoundTrip);
  if (!host) return null;
  return (
    <Group gap={6} wrap="nowrap" c="dimmed" data-testid="return-notice">
      <IconArrowBackUp size={16} aria-hidden style={{ flexShrink: 0 }} />
      <Text fz="xs">{t('common.returnNotice', { host })}</Text>
    </Group>
  );
}
