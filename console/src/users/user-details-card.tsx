import type { ReactNode } from 'react';
import { Badge, Code, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { AdminUser } from '../api/types.ts';
import { formatTimestamp } from '../common/format.ts';
import { SectionCard } from './section-card.tsx';

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack gap={2}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <div>{children}</div>
    </Stack>
  );
}

function Verified({ verified }: { verified: boolean }) {
  const { t } = useTranslation();
  return (
    <Badge size="xs" variant="light" color={verified ? 'teal' : 'gray'}>
      {verified ? t('user.details.verified') : t('user.details.unverified')}
    </Badge>
  );
}

/** The user's profile as `_user` reports it, read-only. */
export function UserDetailsCard({ user }: { user: AdminUser }) {
  const { t } = useTranslation();
  const none = <Text c="dimmed" size="sm">{t('common.none')}</Text>;
  return (
    <SectionCard title={t('user.details.title')}>
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="lg">
        <Field label={t('user.details.email')}>
          {user.email ? (
            <Group gap="xs">
              <Text size="sm">{user.email}</Text>
              <Verified verified={user.email_verified} />
            </Group>
          ) : none}
        </Field>
        <Field label={t('user.details.phone')}>
          {user.phone_number ? (
            <Group gap="xs">
              <Text size="sm">{user.phone_number}</Text>
              <Verified verified={user.phone_number_verified} />
            </Group>
          ) : none}
        </Field>
        <Field label={t('user.details.name')}>
          {[user.given_name, user.family_name].filter(Boolean).join(' ') ? (
            <Text size="sm">{[user.given_name, user.family_name].filter(Boolean).join(' ')}</Text>
          ) : none}
        </Field>
        <Field label={t('user.details.nickname')}>{user.nickname ? <Text size="sm">{user.nickname}</Text> : none}</Field>
        <Field label={t('user.details.signupMethods')}>
          <Text size="sm">
            {user.signup_methods
              ? user.signup_methods
                  .split(',')
                  .map((method) => t(`user.sessions.methods.${method.trim()}`, { defaultValue: method.trim() }))
                  .join(', ')
              : '—'}
          </Text>
        </Field>
        <Field label={t('user.details.created')}>
          <Text size="sm">{formatTimestamp(user.created_at)}</Text>
        </Field>
        <Field label={t('user.details.updated')}>
          <Text size="sm">{formatTimestamp(user.updated_at)}</Text>
        </Field>
        <Field label={t('user.details.id')}>
          <Code>{user.id}</Code>
        </Field>
      </SimpleGrid>
    </SectionCard>
  );
}
