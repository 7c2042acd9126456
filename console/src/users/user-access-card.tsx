/**
 * Access and deletion (docs/operations.md): revoke_access ends every session and token of the user at
 * once and refuses new sign-ins until enable_access; delete_user removes the account with its sessions,
 * tokens and verification data. Both destructive actions confirm first.
 */
import { Button, Divider, Group, Stack, Text } from '@mantine/core';
import { IconLockOpen, IconTrash, IconUserOff } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { deleteUser, enableAccess, revokeAccess } from '../api/mutations.ts';
import { queryKeys } from '../api/queries.ts';
import type { AdminUser } from '../api/types.ts';
import { ConfirmButton } from '../common/confirm.tsx';
import { userLabel } from '../common/format.ts';
import { useAdminMutation } from '../common/use-admin-mutation.ts';
import { SectionCard } from './section-card.tsx';

export function UserAccessCard({ user }: { user: AdminUser }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const label = userLabel(user);
  const changed = [queryKeys.users, queryKeys.user(user.id), queryKeys.userSessions(user.id)];
  const revoke = useAdminMutation({ mutationFn: () => revokeAccess(user.id), invalidates: changed });
  const enable = useAdminMutation({ mutationFn: () => enableAccess(user.id), invalidates: changed });
  const remove = useAdminMutation({
    mutationFn: () => deleteUser(user.id),
    invalidates: [queryKeys.users],
    onSuccess: () => {
      queryClient.removeQueries({ queryKey: queryKeys.user(user.id) });
      queryClient.removeQueries({ queryKey: queryKeys.userSessions(user.id) });
      void navigate('/users', { replace: true });
    },
  });
  const revoked = Boolean(user.revoked_timestamp);

  return (
    <SectionCard title={t('user.access.title')} danger>
      <Stack gap="md">
        <Group justify="space-between" wrap="wrap" gap="sm">
          <Stack gap={2} maw={560}>
            <Text fw={600} size="sm">
              {revoked ? t('user.access.enableTitle') : t('user.access.revokeTitle')}
            </Text>
            <Text size="sm" c="dimmed">
              {revoked ? t('user.access.enableBody') : t('user.access.revokeBody')}
            </Text>
          </Stack>
          {revoked ? (
            <Button variant="light" color="teal" leftSection={<IconLockOpen size={16} />} loading={enable.isPending} onClick={() => enable.mutate(undefined)}>
              {t('user.access.enable')}
            </Button>
          ) : (
            <ConfirmButton
              variant="light"
              color="red"
              leftSection={<IconUserOff size={16} />}
              loading={revoke.isPending}
              confirmTitle={t('user.access.revokeConfirmTitle')}
              confirmBody={t('user.access.revokeConfirmBody', { user: label })}
              confirmLabel={t('user.access.revoke')}
              onConfirm={() => revoke.mutate(undefined)}
            >
              {t('user.access.revoke')}
            </ConfirmButton>
          )}
        </Group>
        <Divider />
        <Group justify="space-between" wrap="wrap" gap="sm">
          <Stack gap={2} maw={560}>
            <Text fw={600} size="sm">
              {t('user.delete.title')}
            </Text>
            <Text size="sm" c="dimmed">
              {t('user.delete.body')}
            </Text>
          </Stack>
          <ConfirmButton
            color="red"
            leftSection={<IconTrash size={16} />}
            loading={remove.isPending}
            confirmTitle={t('user.delete.confirmTitle')}
            confirmBody={t('user.delete.confirmBody', { user: label })}
            confirmLabel={t('user.delete.confirm')}
            onConfirm={() => remove.mutate(undefined)}
          >
            {t('user.delete.button')}
          </ConfirmButton>
        </Group>
      </Stack>
    </SectionCard>
  );
}
