/**
 * A webhook's delivery attempts (`_webhook_logs` with its webhook_id, newest first), paged on the server.
 * Each row opens to show the body sent and the receiver's answer.
 */
import { useState } from 'react';
import { Button, EmptyState, Table, Text } from '@mantine/core';
import { IconRefresh, IconSend } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { ExpandableRow } from '../common/expandable-row.tsx';
import { PagedTable } from '../common/paged-table.tsx';
import { formatTimestamp } from '../common/format.ts';
import { SectionCard } from '../users/section-card.tsx';
import { useWebhookLogs, type WebhookLog } from './api.ts';
import { BodyBlock } from './body-block.tsx';
import { HttpStatusBadge, isDelivered } from './http-status-badge.tsx';

const PAGE_SIZE = 10;
const LOG_COLUMNS = 4;

function LogRow({ log }: { log: WebhookLog }) {
  const { t } = useTranslation('webhooks');
  const time = formatTimestamp(log.created_at);
  return (
    <ExpandableRow
      detailId={`webhook-log-${log.id}`}
      columns={LOG_COLUMNS}
      toggleLabel={(open) => t(open ? 'logs.collapse' : 'logs.expand', { time })}
      cells={
        <>
          <Table.Td>
            <Text size="sm">{time}</Text>
          </Table.Td>
          <Table.Td>
            <HttpStatusBadge status={log.http_status} />
          </Table.Td>
          <Table.Td>
            <Text size="sm" c={isDelivered(log.http_status) ? 'teal.8' : 'red.8'}>
              {isDelivered(log.http_status) ? t('logs.success') : t('logs.failure')}
            </Text>
          </Table.Td>
        </>
      }
    >
      <BodyBlock label={t('logs.request')} body={log.request} empty="—" />
      <BodyBlock label={t('logs.response')} body={log.response} empty={t('test.emptyResponse')} />
    </ExpandableRow>
  );
}

export function DeliveryLog({ webhookId }: { webhookId: string }) {
  const { t } = useTranslation('webhooks');
  const [page, setPage] = useState(1);
  const logs = useWebhookLogs(webhookId, { page, limit: PAGE_SIZE });

  return (
    <SectionCard
      title={t('logs.title')}
      description={t('logs.description')}
      actions={
        <Button variant="default" size="xs" leftSection={<IconRefresh size={14} />} loading={logs.isFetching} onClick={() => void logs.refetch()}>
          {t('logs.refresh')}
        </Button>
      }
    >
      <PagedTable
        query={logs}
        rows={logs.data?.webhook_logs}
        columns={[null, t('logs.time'), t('logs.status'), t('logs.summary')]}
        renderRow={(log) => <LogRow log={log} />}
        label={t('logs.caption')}
        pagerLabel={t('logs.pager')}
        onPage={setPage}
        empty={<EmptyState size="sm" icon={<IconSend size={28} />} withIndicatorBackground title={t('logs.empty')} py="lg" />}
        minWidth={560}
        loadingRows={1}
        spanLoadingRows
        verticalSpacing="xs"
      />
    </SectionCard>
  );
}
