/**
 * The registered webhooks (`_webhooks`, newest first), paged on the server with the page in the URL
 * (?page=): each one's event (a link to its page and delivery log), endpoint, an enabled switch, and adding one.
 */
import { useState } from 'react';
import { Anchor, Button, Code, EmptyState, Paper, Skeleton, Stack, Table, Text } from '@mantine/core';
import { IconPlus, IconWebhook } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { PageHeader } from '../common/page-header.tsx';
import { QueryError } from '../common/query-error.tsx';
import { TablePager } from '../common/table-pager.tsx';
import { formatTimestamp } from '../common/format.ts';
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
  const [params, setParams] = useSearchParams();
  const page = Math.max(1, Number(params.get('page')) || 1);
  const [adding, setAdding] = useState(false);
  const webhooks = useWebhooks({ page, limit: PAGE_SIZE });

  return (
    <Stack gap={0}>
      <PageHeader
        title={t('title')}
        description={t('description')}
        actions={
          <Button leftSection={<IconPlus size={16} />} onClick={() => setAdding(true)}>
            {t('add')}
          </Button>
        }
      />
      <Paper withBorder radius="md" p="md">
        {webhooks.isError ? (
          <QueryError error={webhooks.error} onRetry={() => void webhooks.refetch()} />
        ) : webhooks.data?.webhooks.length === 0 ? (
          <EmptyState size="sm" icon={<IconWebhook size={28} />} withIndicatorBackground title={t('empty')} py="xl" />
        ) : (
          <Table.ScrollContainer minWidth={720}>
            <Table aria-label={t('caption')} verticalSpacing="sm" highlightOnHover aria-busy={webhooks.isFetching}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('columns.event')}</Table.Th>
                  <Table.Th>{t('columns.endpoint')}</Table.Th>
                  <Table.Th>{t('columns.enabled')}</Table.Th>
                  <Table.Th>{t('columns.created')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody style={{ opacity: webhooks.isPlaceholderData ? 0.6 : 1 }}>
                {webhooks.isPending &&
                  Array.from({ length: 3 }, (_, i) => (
                    <Table.Tr key={i}>
                      {Array.from({ length: 4 }, (_, j) => (
                        <Table.Td key={j}>
                          <Skeleton height={14} radius="sm" />
                        </Table.Td>
                      ))}
                    </Table.Tr>
                  ))}
                {webhooks.data?.webhooks.map((webhook) => <WebhookRow key={webhook.id} webhook={webhook} />)}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
        <TablePager pagination={webhooks.data?.pagination} onPage={(next) => setParams({ page: String(next) })} label={t('pager')} />
      </Paper>
      <WebhookFormModal opened={adding} onClose={() => setAdding(false)} />
    </Stack>
  );
}
