/**
 * The registered OAuth clients (`_clients`, newest first), paged on the server with the page in the URL
 * (?page=), a link to each client's page (marked when the client registered itself, RFC 7591), and registration.
 */
import { useState } from 'react';
import { Anchor, Badge, Code, EmptyState, Group, Table, Text } from '@mantine/core';
import { IconApps, IconPlus } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ListPage } from '../common/list-page.tsx';
import { PagedTable } from '../common/paged-table.tsx';
import { formatTimestamp } from '../common/format.ts';
import { usePageInUrl } from '../common/use-list-url.ts';
import { useClients, type OAuthClient } from './api.ts';
import { ClientStatusBadge } from './client-status-badge.tsx';
import { DynamicRegistrationBadge } from './dynamic-registration-badge.tsx';
import { CreateClientModal } from './create-client-modal.tsx';

const PAGE_SIZE = 10;
const SCOPES_SHOWN = 3;

function Scopes({ scopes }: { scopes: string[] }) {
  const { t } = useTranslation('clients');
  if (scopes.length === 0) return <Text size="sm" c="dimmed">{t('translation:common.none')}</Text>;
  return (
    <Group gap={4}>
      {scopes.slice(0, SCOPES_SHOWN).map((scope) => (
        <Badge key={scope} variant="outline" size="sm" tt="none">
          {scope}
        </Badge>
      ))}
      {scopes.length > SCOPES_SHOWN && (
        <Text size="xs" c="dimmed">
          {t('moreScopes', { count: scopes.length - SCOPES_SHOWN })}
        </Text>
      )}
    </Group>
  );
}

function ClientRow({ client }: { client: OAuthClient }) {
  return (
    <Table.Tr>
      <Table.Td>
        <Group gap={6} wrap="nowrap">
          <Anchor component={Link} to={`/clients/${encodeURIComponent(client.id)}`} fw={600} size="sm">
            {client.name}
          </Anchor>
          <DynamicRegistrationBadge client={client} />
        </Group>
        {client.description && (
          <Text size="xs" c="dimmed" lineClamp={1}>
            {client.description}
          </Text>
        )}
      </Table.Td>
      <Table.Td>
        <Code>{client.client_id}</Code>
      </Table.Td>
      <Table.Td>
        <Scopes scopes={client.allowed_scopes} />
      </Table.Td>
      <Table.Td>
        <ClientStatusBadge client={client} />
      </Table.Td>
      <Table.Td>
        <Text size="sm">{formatTimestamp(client.created_at)}</Text>
      </Table.Td>
    </Table.Tr>
  );
}

export function ClientsPage() {
  const { t } = useTranslation('clients');
  const { page, setPage } = usePageInUrl();
  const [creating, setCreating] = useState(false);
  const clients = useClients({ page, limit: PAGE_SIZE });

  return (
    <ListPage
      title={t('title')}
      description={t('description')}
      actionLabel={t('create.open')}
      actionIcon={<IconPlus size={16} />}
      onAction={() => setCreating(true)}
      dialog={<CreateClientModal opened={creating} onClose={() => setCreating(false)} />}
    >
      <PagedTable
        query={clients}
        rows={clients.data?.clients}
        columns={[t('columns.name'), t('columns.clientId'), t('columns.scopes'), t('columns.status'), t('columns.created')]}
        renderRow={(client) => <ClientRow client={client} />}
        label={t('caption')}
        pagerLabel={t('pager')}
        onPage={setPage}
        empty={<EmptyState size="sm" icon={<IconApps size={28} />} withIndicatorBackground title={t('empty')} py="xl" />}
        minWidth={720}
        loadingRows={4}
        highlightOnHover
      />
    </ListPage>
  );
}
