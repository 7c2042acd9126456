import type { ReactNode } from 'react';
import { Button, Paper, Stack } from '@mantine/core';
import { PageHeader } from './page-header.tsx';

/**
 * A console page that is one list: its header with the action that adds to the list (a button opening
 * `dialog`), and the list in a bordered panel.
 */
export function ListPage({ title, description, actionLabel, actionIcon, onAction, dialog, children }: {
  title: string;
  description: string;
  actionLabel: string;
  actionIcon: ReactNode;
  onAction: () => void;
  dialog: ReactNode;
  children: ReactNode;
}) {
  return (
    <Stack gap={0}>
      <PageHeader
        title={title}
        description={description}
        actions={
          <Button leftSection={actionIcon} onClick={onAction}>
            {actionLabel}
          </Button>
        }
      />
      <Paper withBorder radius="md" p="md">
        {children}
      </Paper>
      {dialog}
    </Stack>
  );
}
