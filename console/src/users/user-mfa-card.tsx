/**
 * The user's second factors (the User of docs/api-overview.md#resources-and-fields: enrolled_mfa_methods, is_multi_factor_auth_enabled,
 * mfa_locked_at, has_skipped_mfa_setup_at) and the administrator's way out for a person who lost them:
 * `_update_user` with `reset_mfa` (docs/api-overview.md#states-and-transitions: a lock_mfa account needs admin recovery). The reset
 * removes factors a person may still have, so it asks first.
 */
import { Alert, Badge, Group, Stack, Text } from '@mantine/core';
import { IconLock, IconShieldOff } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { resetMfa } from '../api/mutations.ts';
import { queryKeys } from '../api/queries.ts';
import type { AdminUser } from '../api/types.ts';
import { ConfirmButton } from '../common/confirm.tsx';
import { formatTimestamp, userLabel } from '../common/format.ts';
import { useAdminMutation } from '../common/use-admin-mutation.ts';
import { SectionCard } from './section-card.tsx';

export function UserMfaCard({ user }: { user: AdminUser }) {
  const { t } = useTranslation();
  const reset = useAdminMutation({
    mutationFn: () => resetMfa(user.id),
    invalidates: [queryKeys.users, queryKeys.user(user.id)],
    successMessage: () => t('user.mfa.resetDone'),
  });
  const methods = user.enrolled_mfa_methods ?? [];
  const nothingToReset = methods.length === 0 && !user.mfa_locked_at && !user.has_skipped_mfa_setup_at;

  return (
    <SectionCard title={t('user.mfa.title')} description={t('user.mfa.description')}>
      <Stack gap="md" data-testid="user-mfa">
        {user.mfa_locked_at ? (
          <Alert color="orange" variant="light" icon={<IconLock size={18} />} title={t('user.mfa.lockedTitle')}>
            {t('user.mfa.locked', { date: formatTimestamp(user.mfa_locked_at) })}
          </Alert>
        ) : null}
        <Group gap="xs" wrap="wrap">
          <Text size="sm" fw={600}>
            {t('user.mfa.methods')}:
          </Text>
          {methods.length ? (
            methods.map((method) => (
              <Badge key={method} variant="light" color="teal" data-method={method}>
                {t(`user.mfa.names.${method}`, { defaultValue: method })}
              </Badge>
            ))
          ) : (
            <Text size="sm" c="dimmed">
              {t('user.mfa.none')}
            </Text>
          )}
        </Group>
        {/* The user's own switch and a declined offer only decide the first-time offer (docs/api-overview.md#states-and-transitions):
            with a factor set up every sign-in asks for it whatever they say, so they show only without one. */}
        {methods.length ? null : (
          <Group gap="lg" wrap="wrap">
            <Text size="sm">
              {t('user.mfa.required')}: {user.is_multi_factor_auth_enabled ? t('common.on') : t('common.off')}
            </Text>
            {user.has_skipped_mfa_setup_at ? (
              <Text size="sm" c="dimmed">
                {t('user.mfa.skipped', { date: formatTimestamp(user.has_skipped_mfa_setup_at) })}
              </Text>
            ) : null}
          </Group>
        )}
        <Group justify="space-between" wrap="wrap" gap="sm">
          <Stack gap={2} maw={560}>
            <Text fw={600} size="sm">
              {t('user.mfa.resetTitle')}
            </Text>
            <Text size="sm" c="dimmed">
              {t('user.mfa.resetBody')}
            </Text>
          </Stack>
          <ConfirmButton
            variant="light"
            color="red"
            leftSection={<IconShieldOff size={16} />}
            loading={reset.isPending}
            disabled={nothingToReset}
            confirmTitle={t('user.mfa.resetConfirmTitle')}
            confirmBody={t('user.mfa.resetConfirmBody', { user: userLabel(user) })}
            confirmLabel={t('user.mfa.reset')}
            onConfirm={() => reset.mutate(undefined)}
          >
            {t('user.mfa.reset')}
          </ConfirmButton>
        </Group>
      </Stack>
    </SectionCard>
  );
}
