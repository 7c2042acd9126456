/**
 * Deleting an organization (`_delete_organization`, super-admin only): every record scoped to it goes with
 * it (docs/operations.md), the user accounts stay. Confirms first.
 */
import { Group, Text } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ConfirmButton } from '../common/confirm.tsx';
import { useAdminMutation } from '../common/use-admin-mutation.ts';
import { SectionCard } from '../users/section-card.tsx';
import { deleteOrganization, organizationKeys, type Organization } from './api.ts';

export function OrgDeleteCard({ organization }: { organization: Organization }) {
  const { t } = useTranslation('organizations');
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const remove = useAdminMutation({
    mutationFn: () => deleteOrganization(organization.id),
    invalidates: [organizationKeys.lists()],
    onSuccess: () => {
      queryClient.removeQueries({ queryKey: organizationKeys.one(organization.id) });
      queryClient.removeQueries({ queryKey: organizationKeys.members(organization.id) });
      void navigate('/organizations', { replace: true });
    },
  });
  const name = organization.display_name;
  return (
    <SectionCard title={t('remove.title')} danger>
      <Group justify="space-between" wrap="wrap" gap="sm">
        <Text size="sm" maw={640}>
          {t('remove.description')}
        </Text>
        <ConfirmButton
          color="red"
          variant="light"
          leftSection={<IconTrash size={16} />}
          loading={remove.isPending}
          confirmTitle={t('remove.confirmTitle', { name })}
          confirmBody={t('remove.confirmBody', { name })}
          confirmLabel={t('remove.confirm')}
          onConfirm={() => remove.mutate(undefined)}
        >
          {t('remove.button')}
        </ConfirmButton>
      </Group>
    </SectionCard>
  );
}
