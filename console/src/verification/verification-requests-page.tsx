/**
 * Verification requests (`_verification_requests`): pending email links (signup verification, magic links,
 * password resets, invitations), newest first, paginated on the server. Tokens are stored as hashes and never
 * shown.
 */
import { useState } from 'react';
import { Badge, EmptyState, Paper, Skeleton, Table, Text } from '@mantine/core';
import { IconMailCheck } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useVerificationRequests } from '../api/queries.ts';
import { formatTimestamp } from '../common/format.ts';
import { PageHeader } from '../common/page-header.tsx';
import { QueryError } from '../common/query-error.tsx';
import { TablePager } from '../common/table-pager.tsx';

const PAGE_SIZE = 10;

export function VerificationRequestsPage() {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const requests = useVerificationRequests({ page, limit: PAGE_SIZE });

  return (
    <>
      <PageHeader title={t('verification.title')} description={t('verification.description')} />
      <Paper withBorder radius="md" p="md">
        {requests.isError ? (
          <QueryError error={requests.error} onRetry={() => void requests.refetch()} />
        ) : requests.data?.verification_requests.length === 0 ? (
          <EmptyState size="sm" icon={<IconMailCheck size={28} />} withIndicatorBackground title={t('verification.empty')} py="xl" />
        ) : (
          <Table.ScrollContainer minWidth={640}>
            <Table aria-label={t('verification.caption')} verticalSpacing="sm" aria-busy={requests.isFetching}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('verification.columns.email')}</Table.Th>
                  <Table.Th>{t('verification.columns.purpose')}</Table.Th>
                  <Table.Th>{t('verification.columns.created')}</Table.Th>
                  <Table.Th>{t('verification.columns.expires')}</Table.Th>
                  <Table.Th>{t('verification.columns.redirect')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody style={{ opacity: requests.isPlaceholderData ? 0.6 : 1 }}>
                {requests.isPending &&
                  Array.from({ length: 4 }, (_, i) => (
                    <Table.Tr key={i}>
                      <Table.Td colSpan={5}>
                        <Skeleton height={14} />
                      </Table.Td>
                    </Table.Tr>
                  ))}
                {requests.data?.verification_requests.map((request) => {
                  const expired = request.expires != null && request.expires * 1000 < Date.now();
                  return (
                    <Table.Tr key={request.id}>
                      <Table.Td>
                        <Text size="sm">{request.email || '—'}</Text>
                      </Table.Td>
                      <Table.Td>
                        <Badge variant="light" tt="none">
                          {t(`verification.purposes.${request.identifier ?? ''}`, { defaultValue: request.identifier || '—' })}
                        </Badge>
                      </Table.Td>
                      <Table.Td>
                        <Text size="sm">{formatTimestamp(request.created_at)}</Text>
                      </Table.Td>
                      <Table.Td>
                        <Text size="sm" c={expired ? 'red.8' : undefined}>
                          {formatTimestamp(request.expires)}
                          {expired ? ` (${t('verification.expired')})` : ''}
                        </Text>
                      </Table.Td>
                      <Table.Td maw={260}>
                        <Text size="sm" truncate title={request.redirect_uri ?? undefined}>
                          {request.redirect_uri || '—'}
                        </Text>
                      </Table.Td>
                    </Table.Tr>
                  );
                })}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
        <TablePager pagination={requests.data?.pagination} onPage={setPage} label={t('verification.pager')} />
      </Paper>
    </>
  );
}
