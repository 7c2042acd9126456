/**
 * The audit log (`_audit_logs`, newest first): filters and the page live in the URL, the table is paged on
 * the server, and each row opens to its metadata.
 */
import { useMemo } from 'react';
import { EmptyState, Paper, Skeleton, Stack, Table } from '@mantine/core';
import { IconListSearch } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { PageHeader } from '../common/page-header.tsx';
import { QueryError } from '../common/query-error.tsx';
import { TablePager } from '../common/table-pager.tsx';
import { useAuditLogs } from './api.ts';
import { AuditFilterForm } from './audit-filter-form.tsx';
import { auditFiltersOf, filterValuesOf, searchParamsOf } from './audit-filters.ts';
import { AUDIT_COLUMNS, AuditRow } from './audit-row.tsx';

const PAGE_SIZE = 20;

export function AuditLogPage() {
  const { t } = useTranslation('audit');
  const [params, setParams] = useSearchParams();
  const search = params.toString();
  const applied = useMemo(() => filterValuesOf(new URLSearchParams(search)), [search]);
  const filters = useMemo(() => auditFiltersOf(applied), [applied]);
  const page = Math.max(1, Number(params.get('page')) || 1);
  const logs = useAuditLogs(filters, { page, limit: PAGE_SIZE });

  const toPage = (next: number) => {
    const nextParams = searchParamsOf(applied);
    nextParams.set('page', String(next));
    setParams(nextParams);
  };

  return (
    <Stack gap={0}>
      <PageHeader title={t('title')} description={t('description')} />
      <Paper withBorder radius="md" p="md" mb="lg">
        <AuditFilterForm applied={applied} onApply={(values) => setParams(searchParamsOf(values))} />
      </Paper>
      <Paper withBorder radius="md" p="md">
        {logs.isError ? (
          <QueryError error={logs.error} onRetry={() => void logs.refetch()} />
        ) : logs.data?.audit_logs.length === 0 ? (
          <EmptyState size="sm" icon={<IconListSearch size={28} />} withIndicatorBackground title={t('empty')} py="xl" />
        ) : (
          <Table.ScrollContainer minWidth={860}>
            <Table aria-label={t('caption')} verticalSpacing="xs" aria-busy={logs.isFetching}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th aria-hidden />
                  <Table.Th>{t('columns.time')}</Table.Th>
                  <Table.Th>{t('columns.action')}</Table.Th>
                  <Table.Th>{t('columns.actor')}</Table.Th>
                  <Table.Th>{t('columns.resource')}</Table.Th>
                  <Table.Th>{t('columns.ip')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody style={{ opacity: logs.isPlaceholderData ? 0.6 : 1 }}>
                {logs.isPending &&
                  Array.from({ length: 5 }, (_, i) => (
                    <Table.Tr key={i}>
                      <Table.Td colSpan={AUDIT_COLUMNS}>
                        <Skeleton height={14} radius="sm" />
                      </Table.Td>
                    </Table.Tr>
                  ))}
                {logs.data?.audit_logs.map((entry) => <AuditRow key={entry.id} entry={entry} />)}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
        <TablePager pagination={logs.data?.pagination} onPage={toPage} label={t('pager')} />
      </Paper>
    </Stack>
  );
}
