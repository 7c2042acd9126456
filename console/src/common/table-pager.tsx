import { Group, Pagination as MantinePagination, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { Pagination } from '../api/types.ts';

/** The footer of a server-paginated table: which rows are shown and the page switcher. */
export function TablePager({ pagination, onPage, label }: { pagination?: Pagination; onPage: (page: number) => void; label: string }) {
  const { t } = useTranslation();
  if (!pagination || pagination.total === 0) return null;
  const pages = Math.max(1, Math.ceil(pagination.total / pagination.limit));
  const first = pagination.offset + 1;
  const last = Math.min(pagination.offset + pagination.limit, pagination.total);
  return (
    <Group justify="space-between" mt="md" wrap="wrap" gap="sm">
      <Text size="sm" c="dimmed" aria-live="polite">
        {t('common.showing', { first, last, total: pagination.total })}
      </Text>
      {pages > 1 && (
        <MantinePagination
          total={pages}
          value={pagination.page}
          onChange={onPage}
          size="sm"
          aria-label={label}
          getControlProps={(control) => ({ 'aria-label': t(`common.pager.${control}`) })}
          getItemProps={(page) => ({ 'aria-label': t('common.pager.page', { page }) })}
        />
      )}
    </Group>
  );
}
