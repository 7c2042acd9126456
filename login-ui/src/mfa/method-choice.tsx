/**
 * A list of second factors to choose from, one large button each (the challenge picker and the first-time
 * offer): the method's name and a line on what it asks of the person.
 */
import { Stack, Text, UnstyledButton, Group, ThemeIcon, Paper } from '@mantine/core';
import { IconChevronRight } from '@tabler/icons-react';
import { MethodIcon } from './method-icon.tsx';
import type { ChallengeMethod } from './mfa-step.ts';

export interface MethodChoiceItem {
  method: ChallengeMethod;
  title: string;
  description: string;
}

export function MethodChoice({ items, onChoose, label }: { items: MethodChoiceItem[]; onChoose: (method: ChallengeMethod) => void; label: string }) {
  return (
    <Stack gap="sm" role="list" aria-label={label}>
      {items.map((item) => (
        <Paper key={item.method} withBorder radius="md" role="listitem">
          <UnstyledButton onClick={() => onChoose(item.method)} w="100%" p="md" data-method={item.method} aria-label={item.title}>
            <Group wrap="nowrap" gap="md">
              <ThemeIcon variant="light" size={36} radius="md">
                <MethodIcon method={item.method} />
              </ThemeIcon>
              <Stack gap={2} style={{ flex: 1, minWidth: 0 }}>
                <Text fw={600} fz="sm">
                  {item.title}
                </Text>
                <Text fz="xs" c="dimmed">
                  {item.description}
                </Text>
              </Stack>
              <IconChevronRight size={18} aria-hidden />
            </Group>
          </UnstyledButton>
        </Paper>
      ))}
    </Stack>
  );
}
