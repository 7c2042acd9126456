import type { ReactNode } from 'react';
import { Anchor, Group, Skeleton, Stack } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { Link } from 'react-router';
import { QueryError } from './query-error.tsx';

/** The link at the top of a detail page back to its list. */
export function BackLink({ to, label }: { to: string; label: string }) {
  return (
    <Anchor component={Link} to={to} size="sm">
      <Group gap={4} component="span">
        <IconArrowLeft size={14} />
        {label}
      </Group>
    </Anchor>
  );
}

/** What the page reads of the record's query (TanStack Query's result). */
interface RecordQuery<Item> {
  data?: Item;
  error: unknown;
  isError: boolean;
  isPending: boolean;
  refetch: () => unknown;
}

/**
 * The page of one record: the link back to its list, then placeholder blocks while the record loads (a title
 * bar and one block of each height in `loadingHeights`, the page's cards roughly), or the failed read with a
 * retry, or what `children` shows of the record.
 */
export function RecordPage<Item>({ backTo, backLabel, query, loadingHeights, children }: {
  backTo: string;
  backLabel: string;
  query: RecordQuery<Item>;
  loadingHeights: number[];
  children: (record: Item) => ReactNode;
}) {
  return (
    <Stack gap="lg">
      <BackLink to={backTo} label={backLabel} />
      {query.isPending && (
        <Stack>
          <Skeleton height={32} width="40%" />
          {loadingHeights.map((height, i) => (
            <Skeleton key={i} height={height} />
          ))}
        </Stack>
      )}
      {query.isError && <QueryError error={query.error} onRetry={() => void query.refetch()} />}
      {query.data && children(query.data)}
    </Stack>
  );
}
