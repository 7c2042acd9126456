/** One OAuth client: its settings, credentials (rotation), trusted issuers, activation and deletion. */
import { Anchor, Group, Skeleton, Stack } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { PageHeader } from '../common/page-header.tsx';
import { QueryError } from '../common/query-error.tsx';
import { useClient } from './api.ts';
import { ClientAccessCard } from './client-access-card.tsx';
import { ClientCredentialsCard } from './client-credentials-card.tsx';
import { ClientSettingsCard } from './client-settings-card.tsx';
import { ClientStatusBadge } from './client-status-badge.tsx';
import { TrustedIssuersCard } from '../trusted-issuers/trusted-issuers-card.tsx';

export function ClientPage() {
  const { t } = useTranslation('clients');
  const { clientId = '' } = useParams();
  const client = useClient(clientId);

  return (
    <Stack gap="lg">
      <Anchor component={Link} to="/clients" size="sm">
        <Group gap={4} component="span">
          <IconArrowLeft size={14} />
          {t('back')}
        </Group>
      </Anchor>
      {client.isPending && (
        <Stack>
          <Skeleton height={32} width="40%" />
          <Skeleton height={320} />
          <Skeleton height={160} />
        </Stack>
      )}
      {client.isError && <QueryError error={client.error} onRetry={() => void client.refetch()} />}
      {client.data && (
        <>
          <PageHeader title={client.data.name} description={client.data.description || undefined} actions={<ClientStatusBadge client={client.data} />} />
          <ClientSettingsCard client={client.data} />
          <ClientCredentialsCard client={client.data} />
          <TrustedIssuersCard clientId={client.data.client_id} />
          <ClientAccessCard client={client.data} />
        </>
      )}
    </Stack>
  );
}
