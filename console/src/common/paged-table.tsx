import { Fragment, type ReactNode } from 'react';
import { Skeleton, Table } from '@mantine/core';
import type { Pagination } from '../api/types.ts';
import { QueryError } from './query-error.tsx';
import { TablePager } from './table-pager.tsx';

/** What the table reads of a paged query (TanStack Query's result, whatever the list's own key). */
interface PagedQuery {
  data?: { pagination: Pagination };
  error: unknown;
  isError: boolean;
  isPending: boolean;
  isFetching: boolean;
  isPlaceholderData: boolean;
  refetch: () => unknown;
}

/**
 * A list paged on the server, for a card to hold: the failed read, or the empty state, or the table, with the
 * pager below. The first page shows placeholder rows while it loads; another page keeps the previous rows dimmed
 * until it arrives. A `null` column is a blank header (a row's expander) hidden from assistive technology.
 */
export function PagedTable<Row extends { id: string }>({
  query,
  rows,
  columns,
  renderRow,
  label,
  pagerLabel,
  onPage,
  empty,
  minWidth,
  loadingRows,
  spanLoadingRows = false,
  verticalSpacing = 'sm',
  highlightOnHover = false,
}: {
  query: PagedQuery;
  rows: Row[] | undefined;
  columns: ReactNode[];
  renderRow: (row: Row) => ReactNode;
  /** The table's accessible name. */
  label: string;
  pagerLabel: string;
  onPage: (page: number) => void;
  empty: ReactNode;
  minWidth: number;
  loadingRows: number;
  /** One placeholder bar across each loading row instead of one a column (rows that open span the table). */
  spanLoadingRows?: boolean;
  verticalSpacing?: 'xs' | 'sm';
  highlightOnHover?: boolean;
}) {
  return (
    <>
      {query.isError ? (
        <QueryError error={query.error} onRetry={() => void query.refetch()} />
      ) : rows?.length === 0 ? (
        empty
      ) : (
        <Table.ScrollContainer minWidth={minWidth}>
          <Table aria-label={label} verticalSpacing={verticalSpacing} highlightOnHover={highlightOnHover} aria-busy={query.isFetching}>
            <Table.Thead>
              <Table.Tr>
                {columns.map((column, i) => (
                  <Table.Th key={i} aria-hidden={column === null || undefined}>
                    {column}
                  </Table.Th>
                ))}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody style={{ opacity: query.isPlaceholderData ? 0.6 : 1 }}>
              {query.isPending &&
                Array.from({ length: loadingRows }, (_, i) => (
                  <Table.Tr key={i}>
                    {spanLoadingRows ? (
                      <Table.Td colSpan={columns.length}>
                        <Skeleton height={14} radius="sm" />
                      </Table.Td>
                    ) : (
                      columns.map((_, j) => (
                        <Table.Td key={j}>
                          <Skeleton height={14} radius="sm" />
                        </Table.Td>
                      ))
                    )}
                  </Table.Tr>
                ))}
              {rows?.map((row) => <Fragment key={row.id}>{renderRow(row)}</Fragment>)}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <TablePager pagination={query.data?.pagination} onPage={onPage} label={pagerLabel} />
    </>
  );
}
