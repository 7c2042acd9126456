/**
 * The registered webhooks (`_webhooks`, newest first), paged on the server with the page in the URL
 * (?page=): each one's event (a link to its page and delivery log), endpoint, an enabled switch, and adding one.
 */
import { useState } from 'react';
import { Anchor, Code, EmptyState, Table, Text } from '@mantine/core';
import { IconPlus, IconWebhook } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ListPage } from '../common/list-page.tsx';
import { PagedTable } from '../common/paged-table.tsx';
import { formatTimestamp } from '../common/format.ts';
import { usePageInUrl } from '../common/use-list-url.ts';
import { useWebhooks, type Webhook } from './api.ts';
import { WebhookEnabledSwitch } from './webhook-enabled-switch.tsx';
import { WebhookFormModal } from './webhook-form-modal.tsx';

const PAGE_SIZE = 10;

function WebhookRow({ webhook }: { webhook: Webhook }) {
  return (
    <Table.Tr>
      <Table.Td>
        <Anchor component={Link} to={`/webhooks/${encodeURIComponent(webhook.id)}`} fw={600} size="sm">
          {webhook.event_name}
        </Anchor>
        {webhook.event_description && webhook.event_description !== webhook.event_name.replaceAll('.', ' ') && (
          <Text size="xs" c="dimmed" lineClamp={1}>
            {webhook.event_description}
          </Text>
        )}
      </Table.Td>
      <Table.Td maw={420}>
        <Code style={{ wordBreak: 'break-all' }}>{webhook.endpoint}</Code>
      </Table.Td>
      <Table.Td>
        <WebhookEnabledSwitch webhook={webhook} />
      </Table.Td>
      <Table.Td>
        <Text size="sm">{formatTimestamp(webhook.created_at)}</Text>
      </Table.Td>
    </Table.Tr>
  );
}

export function WebhooksPage() {
  const { t } = useTranslation('webhooks');
  const { page, setPage } = usePageInUrl();
  const [adding, setAdding] = useState(false);
  const webhooks = useWebhooks({ page, limit: PAGE_SIZE });

  return (
    <ListPage
      title={t('title')}
      description={t('description')}
      actionLabel={t('add')}
      actionIcon={<IconPlus size={16} />}
      onAction={() => setAdding(true)}
      dialog={<WebhookFormModal opened={adding} onClose={() => setAdding(false)} />}
    >
      <PagedTable
        query={webhooks}
        rows={webhooks.data?.webhooks}
        columns={[t('columns.event'), t('columns.endpoint'), t('columns.enabled'), t('columns.created')]}
        renderRow={(webhook) => <WebhookRow webhook={webhook} />}
        label={t('caption')}
        pagerLabel={t('pager')}
        onPage={setPage}
        empty={<EmptyState size="sm" icon={<IconWebhook size={28} />} withIndicatorBackground title={t('empty')} py="xl" />}
        minWidth={720}
        loadingRows={3}
        highlightOnHover
      />
    </ListPage>
  );
}
