import type { ReactNode } from 'react';
import { Group, Paper, Stack, Text, Title } from '@mantine/core';

/** A titled section of a detail page (h2 under the page's h1). */
export function SectionCard({ title, description, actions, children, danger }: {
  title: string;
  description?: string;
  actions?: ReactNode;
  children: ReactNode;
  danger?: boolean;
}) {
  return (
    <Paper withBorder radius="md" p="lg" component="section" style={danger ? { borderColor: 'var(--mantine-color-red-3)' } : undefined}>
      <Group justify="space-between" align="flex-start" mb="md" wrap="wrap" gap="sm">
        <Stack gap={2}>
          <Title order={2} size="h4" c={danger ? 'red.8' : undefined}>
            {title}
          </Title>
          {description && (
            <Text size="sm" c="dimmed">
              {description}
            </Text>
          )}
        </Stack>
        {actions}
      </Group>
      {children}
    </Paper>
  );
}
