import { Badge, Tooltip } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { OAuthClient } from './api.ts';

/**
 * Marks a client that registered itself at /oauth/register (RFC 7591; docs/openid-connect-clients.md#dynamic-client-registration)
 * rather than being created here, so an admin tells self-registered applications apart in the list.
 */
export function DynamicRegistrationBadge({ client }: { client: Pick<OAuthClient, 'dynamically_registered'> }) {
  const { t } = useTranslation('clients');
  if (!client.dynamically_registered) return null;
  return (
    <Tooltip label={t('dynamicallyRegisteredHint')}>
      <Badge variant="light" color="violet" size="sm" tt="none">
        {t('dynamicallyRegistered')}
      </Badge>
    </Tooltip>
  );
}
