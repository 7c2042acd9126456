/**
 * Names the application the person will be sent to after signing in, so they can tell a genuine request
 * from a link someone sent them: the host comes from the server-vetted redirect_uri, and for an
 * authorization request the registered client's name too, which the server put in the page
 * (server/transports/http/ui/returning-client.ts; never read from the URL).
 */
import { Group, Text } from '@mantine/core';
import { IconArrowBackUp } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { initialRoundTrip, returnHost } from './round-trip.ts';

/** The registered client's name the server wrote into this page, when it was opened by /authorize. */
function returningClientName(): string | undefined {
  return document.querySelector<HTMLMetaElement>('meta[name="portcullis:client-name"]')?.content || undefined;
}

export function ReturnNotice() {
  const { t } = useTranslation();
  const host = returnHost(initialRoundTrip);
  if (!host) return null;
  const client = returningClientName();
  return (
    <Group gap={6} wrap="nowrap" c="dimmed" data-testid="return-notice">
      <IconArrowBackUp size={16} aria-hidden style={{ flexShrink: 0 }} />
      <Text fz="xs">{client ? t('common.returnToClient', { client, host }) : t('common.returnNotice', { host })}</Text>
    </Group>
  );
}
