/** One second factor on the Security page: its name, what it is, whether it is on, and the way to add it. */
import type { ReactNode } from 'react';
import { Badge, Button, Group, Paper, Stack, Text, ThemeIcon } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { MethodIcon } from '../mfa/method-icon.tsx';
import type { ChallengeMethod } from '../mfa/mfa-step.ts';

export function MethodRow({ method, enrolled, description, actionLabel, onAction, children }: {
  method: ChallengeMethod;
  enrolled: boolean;
  description: string;
  /** Absent when there is nothing to add (an app already set up). */
  actionLabel?: string;
  onAction?: () => void;
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <Paper withBorder radius="md" p="md" data-testid={`security-${method}`}>
      <Stack gap="sm">
        <Group wrap="nowrap" gap="md" align="flex-start">
          <ThemeIcon variant="light" size={36} radius="md">
            <MethodIcon method={method} />
          </ThemeIcon>
          <Stack gap={2} style={{ flex: 1, minWidth: 0 }}>
            <Group gap="xs" wrap="wrap">
              <Text fw={600} fz="sm">
                {t(`mfa.methods.${method}.title`)}
              </Text>
              <Badge size="sm" variant="light" color={enrolled ? 'teal' : 'gray'}>
                {enrolled ? t('security.on') : t('security.off')}
              </Badge>
            </Group>
            <Text fz="xs" c="dimmed">
              {description}
            </Text>
          </Stack>
        </Group>
        {children}
        {actionLabel && onAction ? (
          <Button variant="light" size="xs" onClick={onAction} style={{ alignSelf: 'flex-start' }}>
            {actionLabel}
          </Button>
        ) : null}
      </Stack>
    </Paper>
  );
}
