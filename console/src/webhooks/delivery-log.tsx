/**
 * A webhook's delivery attempts (`_webhook_logs` with its webhook_id, newest first), paged on the server.
 * Each row opens to show the body sent and the receiver's answer.
 */
import { Fragment, useState } from 'react';
import { ActionIcon, Button, EmptyState, Skeleton, Stack, Table, Text } from '@mantine/core';
import { IconChevronDown, IconChevronRight, IconRefresh, IconSend } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { QueryError } from '../common/query-error.tsx';
import { TablePager } from '../common/table-pager.tsx';
import { formatTimestamp } from '../common/format.ts';
import { SectionCard } from '../users/section-card.tsx';
import { useWebhookLogs, type WebhookLog } from './api.ts';
import { BodyBlock } from './body-block.tsx';
import { HttpStatusBadge, isDelivered } from './http-status-badge.tsx';

const PAGE_SIZE = 10;

function LogRow({ log }: { log: WebhookLog }) {
  const { t } = useTranslation('webhooks');
  const [open, setOpen] = useState(false);
  const time = formatTimestamp(log.created_at);
  const detailId = `webhook-log-${log.id}`;
  return (
    <Fragment>
      <Table.Tr>
        <Table.Td w={48}>
          <ActionIcon
            variant="subtle"
            color="gray"
            aria-expanded={open}
            aria-controls={detailId}
            aria-label={t(open ? 'logs.collapse' : 'logs.expand', { time })}
            onClick={() => setOpen((was) => !was)}
          >
            {open ? <IconChevronDown size={16} /> : <IconChevronRight size={16} />}
          </ActionIcon>
        </Table.Td>
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
      </Table.Tr>
      {open && (
        <Table.Tr id={detailId}>
          <Table.Td colSpan={4} bg="var(--mantine-color-gray-0)">
            <Stack gap="sm" py="xs">
              <BodyBlock label={t('logs.request')} body={log.request} empty="—" />
              <BodyBlock label={t('logs.response')} body={log.response} empty={t('test.emptyResponse')} />
            </Stack>
          </Table.Td>
        </Table.Tr>
      )}
    </Fragment>
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
      {logs.isError ? (
        <QueryError error={logs.error} onRetry={() => void logs.refetch()} />
      ) : logs.data?.webhook_logs.length === 0 ? (
        <EmptyState size="sm" icon={<IconSend size={28} />} withIndicatorBackground title={t('logs.empty')} py="lg" />
      ) : (
        <Table.ScrollContainer minWidth={560}>
          <Table aria-label={t('logs.caption')} verticalSpacing="xs" aria-busy={logs.isFetching}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th aria-hidden />
                <Table.Th>{t('logs.time')}</Table.Th>
                <Table.Th>{t('logs.status')}</Table.Th>
                <Table.Th>{t('logs.summary')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody style={{ opacity: logs.isPlaceholderData ? 0.6 : 1 }}>
              {logs.isPending && (
                <Table.Tr>
                  <Table.Td colSpan={4}>
                    <Skeleton height={14} radius="sm" />
                  </Table.Td>
                </Table.Tr>
              )}
              {logs.data?.webhook_logs.map((log) => <LogRow key={log.id} log={log} />)}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <TablePager pagination={logs.data?.pagination} onPage={setPage} label={t('logs.pager')} />
    </SectionCard>
  );
}
