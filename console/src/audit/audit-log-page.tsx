/**
 * The audit log (`_audit_logs`, newest first): filters and the page live in the URL, the table is paged on
 * the server, and each row opens to its metadata.
 */
import { useMemo } from 'react';
import { EmptyState, Paper, Stack } from '@mantine/core';
import { IconListSearch } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { PageHeader } from '../common/page-header.tsx';
import { PagedTable } from '../common/paged-table.tsx';
import { useAuditLogs } from './api.ts';
import { AuditFilterForm } from './audit-filter-form.tsx';
import { auditFiltersOf, filterValuesOf, searchParamsOf } from './audit-filters.ts';
import { AuditRow } from './audit-row.tsx';

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
        <PagedTable
          query={logs}
          rows={logs.data?.audit_logs}
          columns={[null, t('columns.time'), t('columns.action'), t('columns.actor'), t('columns.resource'), t('columns.ip')]}
          renderRow={(entry) => <AuditRow entry={entry} />}
          label={t('caption')}
          pagerLabel={t('pager')}
          onPage={toPage}
          empty={<EmptyState size="sm" icon={<IconListSearch size={28} />} withIndicatorBackground title={t('empty')} py="xl" />}
          minWidth={860}
          loadingRows={5}
          spanLoadingRows
          verticalSpacing="xs"
        />
      </Paper>
    </Stack>
  );
}
