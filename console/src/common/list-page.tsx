import type { ReactNode } from 'react';
import { Button, Group, Paper, Stack } from '@mantine/core';
import { PageHeader } from './page-header.tsx';

/**
 * A console page that is one list: its header with the action that adds to the list (a button opening
 * `dialog`), optionally another way to add (`secondaryAction`, drawn before it), and the list in a bordered
 * panel.
 */
export function ListPage({ title, description, actionLabel, actionIcon, onAction, secondaryAction, dialog, children }: {
  title: string;
  description: string;
  actionLabel: string;
  actionIcon: ReactNode;
  onAction: () => void;
  secondaryAction?: ReactNode;
  dialog: ReactNode;
  children: ReactNode;
}) {
  return (
    <Stack gap={0}>
      <PageHeader
        title={title}
        description={description}
        actions={
          <Group gap="sm">
            {secondaryAction}
            <Button leftSection={actionIcon} onClick={onAction}>
              {actionLabel}
            </Button>
          </Group>
        }
      />
      <Paper withBorder radius="md" p="md">
        {children}
      </Paper>
      {dialog}
    </Stack>
  );
}
