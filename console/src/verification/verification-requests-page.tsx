/**
 * Verification requests (`_verification_requests`): pending email links (signup verification, magic links,
 * password resets, invitations), newest first, paginated on the server. Tokens are stored as hashes and never
 * shown.
 */
import { useState } from 'react';
import { Badge, EmptyState, Paper, Table, Text } from '@mantine/core';
import { IconMailCheck } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useVerificationRequests } from '../api/queries.ts';
import type { VerificationRequest } from '../api/types.ts';
import { formatTimestamp } from '../common/format.ts';
import { PageHeader } from '../common/page-header.tsx';
import { PagedTable } from '../common/paged-table.tsx';

const PAGE_SIZE = 10;

function RequestRow({ request }: { request: VerificationRequest }) {
  const { t } = useTranslation();
  const expired = request.expires != null && request.expires * 1000 < Date.now();
  return (
    <Table.Tr>
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
}

export function VerificationRequestsPage() {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const requests = useVerificationRequests({ page, limit: PAGE_SIZE });

  return (
    <>
      <PageHeader title={t('verification.title')} description={t('verification.description')} />
      <Paper withBorder radius="md" p="md">
        <PagedTable
          query={requests}
          rows={requests.data?.verification_requests}
          columns={[
            t('verification.columns.email'),
            t('verification.columns.purpose'),
            t('verification.columns.created'),
            t('verification.columns.expires'),
            t('verification.columns.redirect'),
          ]}
          renderRow={(request) => <RequestRow request={request} />}
          label={t('verification.caption')}
          pagerLabel={t('verification.pager')}
          onPage={setPage}
          empty={<EmptyState size="sm" icon={<IconMailCheck size={28} />} withIndicatorBackground title={t('verification.empty')} py="xl" />}
          minWidth={640}
          loadingRows={4}
          spanLoadingRows
        />
      </Paper>
    </>
  );
}
