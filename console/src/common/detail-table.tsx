import type { ReactNode } from 'react';
import { Table } from '@mantine/core';

/** Read-only facts of one record (id, dates, settings), a label column beside the values. */
export function DetailTable({ children }: { children: ReactNode }) {
  return (
    <Table variant="vertical" layout="fixed" withTableBorder={false}>
      <Table.Tbody>{children}</Table.Tbody>
    </Table>
  );
}

/** One fact of a DetailTable. */
export function DetailRow({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Table.Tr>
      <Table.Th w={180} fw={500} c="dimmed">
        {label}
      </Table.Th>
      <Table.Td>{children}</Table.Td>
    </Table.Tr>
  );
}
