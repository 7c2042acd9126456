import { Fragment, useState, type ReactNode } from 'react';
import { ActionIcon, Stack, Table } from '@mantine/core';
import { IconChevronDown, IconChevronRight } from '@tabler/icons-react';

/**
 * A table row that opens to a detail row below it: a chevron button first (named by `toggleLabel`, which says
 * whether it opens or closes), the summary `cells` after it, and `children` in the detail row across all
 * `columns` while open.
 */
export function ExpandableRow({ detailId, columns, toggleLabel, cells, children }: {
  detailId: string;
  columns: number;
  toggleLabel: (open: boolean) => string;
  cells: ReactNode;
  children: ReactNode;
}) {
  const [open, setOpen] = useState(false);
  return (
    <Fragment>
      <Table.Tr>
        <Table.Td w={48}>
          <ActionIcon
            variant="subtle"
            color="gray"
            aria-expanded={open}
            aria-controls={detailId}
            aria-label={toggleLabel(open)}
            onClick={() => setOpen((was) => !was)}
          >
            {open ? <IconChevronDown size={16} /> : <IconChevronRight size={16} />}
          </ActionIcon>
        </Table.Td>
        {cells}
      </Table.Tr>
      {open && (
        <Table.Tr id={detailId}>
          <Table.Td colSpan={columns} bg="var(--mantine-color-gray-0)">
            <Stack gap="sm" py="xs">
              {children}
            </Stack>
          </Table.Td>
        </Table.Tr>
      )}
    </Fragment>
  );
}
