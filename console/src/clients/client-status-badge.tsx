import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { OAuthClient } from './api.ts';

/** Active, or inactive (refused at the token endpoint until activated again). */
export function ClientStatusBadge({ client }: { client: Pick<OAuthClient, 'is_active'> }) {
  const { t } = useTranslation('clients');
  return (
    <Badge variant="light" color={client.is_active ? 'teal' : 'gray'}>
      {client.is_active ? t('status.active') : t('status.inactive')}
    </Badge>
  );
}
