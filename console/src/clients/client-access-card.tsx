/**
 * Activation and deletion of a client. Deactivating (`_update_client` is_active false) makes the token
 * endpoint refuse it while keeping its settings and secret; deleting (`_delete_client`) removes it with its
 * trusted issuers (docs/operations.md). Both ask first; activating again does not.
 */
import { Button, Divider, Group, Stack, Text } from '@mantine/core';
import { IconPlayerPause, IconPlayerPlay, IconTrash } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ConfirmButton } from '../common/confirm.tsx';
import { useAdminMutation } from '../common/use-admin-mutation.ts';
import { SectionCard } from '../users/section-card.tsx';
import { clientKeys, deleteClient, updateClient, type OAuthClient } from './api.ts';

export function ClientAccessCard({ client }: { client: OAuthClient }) {
  const { t } = useTranslation('clients');
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const setActive = useAdminMutation({
    mutationFn: (active: boolean) => updateClient(client.id, { is_active: active }),
    invalidates: [clientKeys.lists()],
    successMessage: (saved) => (saved.is_active ? t('access.activated') : t('access.deactivated')),
    onSuccess: (saved) => queryClient.setQueryData(clientKeys.one(client.id), saved),
  });
  const remove = useAdminMutation({
    mutationFn: () => deleteClient(client.id),
    invalidates: [clientKeys.lists()],
    onSuccess: () => {
      queryClient.removeQueries({ queryKey: clientKeys.one(client.id) });
      void navigate('/clients', { replace: true });
    },
  });

  return (
    <SectionCard title={t('access.title')} danger>
      <Stack gap="md">
        <Group justify="space-between" wrap="wrap" gap="sm">
          <Stack gap={2} maw={560}>
            <Text fw={600} size="sm">
              {client.is_active ? t('access.deactivateTitle') : t('access.activateTitle')}
            </Text>
            <Text size="sm" c="dimmed">
              {client.is_active ? t('access.deactivateBody') : t('access.activateBody')}
            </Text>
          </Stack>
          {client.is_active ? (
            <ConfirmButton
              variant="light"
              color="red"
              leftSection={<IconPlayerPause size={16} />}
              loading={setActive.isPending}
              confirmTitle={t('access.deactivateConfirmTitle')}
              confirmBody={t('access.deactivateConfirmBody', { name: client.name })}
              confirmLabel={t('access.deactivate')}
              onConfirm={() => setActive.mutate(false)}
            >
              {t('access.deactivate')}
            </ConfirmButton>
          ) : (
            <Button variant="light" color="teal" leftSection={<IconPlayerPlay size={16} />} loading={setActive.isPending} onClick={() => setActive.mutate(true)}>
              {t('access.activate')}
            </Button>
          )}
        </Group>
        <Divider />
        <Group justify="space-between" wrap="wrap" gap="sm">
          <Stack gap={2} maw={560}>
            <Text fw={600} size="sm">
              {t('access.deleteTitle')}
            </Text>
            <Text size="sm" c="dimmed">
              {t('access.deleteBody')}
            </Text>
          </Stack>
          <ConfirmButton
            color="red"
            leftSection={<IconTrash size={16} />}
            loading={remove.isPending}
            confirmTitle={t('access.deleteConfirmTitle')}
            confirmBody={t('access.deleteConfirmBody', { name: client.name, clientId: client.client_id })}
            confirmLabel={t('access.deleteConfirm')}
            onConfirm={() => remove.mutate(undefined)}
          >
            {t('access.delete')}
          </ConfirmButton>
        </Group>
      </Stack>
    </SectionCard>
  );
}
