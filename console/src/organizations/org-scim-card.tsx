/**
 * The organization's SCIM endpoint: the base URL to configure at the identity provider, creating the endpoint
 * (its token shown once), rotating the token after a confirmation (the old one is refused at once), and
 * deleting the endpoint after a confirmation (provisioned users and groups stay).
 */
import { useState } from 'react';
import { Button, Group, Skeleton, Stack, Text } from '@mantine/core';
import { IconKey, IconPlus, IconRefresh, IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { ConfirmButton } from '../common/confirm.tsx';
import { CopyableValue } from '../common/copyable-value.tsx';
import { DetailRow, DetailTable } from '../common/detail-table.tsx';
import { formatTimestamp } from '../common/format.ts';
import { QueryError } from '../common/query-error.tsx';
import { useAdminMutation } from '../common/use-admin-mutation.ts';
import { SectionCard } from '../users/section-card.tsx';
import { createScimEndpoint, deleteScimEndpoint, rotateScimToken, scimKeys, useScimEndpoint, type IssuedScimToken } from './scim-api.ts';
import { ScimTokenModal } from './scim-token-modal.tsx';

export function OrgScimCard({ orgId, orgName }: { orgId: string; orgName: string }) {
  const { t } = useTranslation('organizations');
  const status = useScimEndpoint(orgId);
  const [issued, setIssued] = useState<IssuedScimToken | undefined>();
  const changed = [scimKeys.endpoint(orgId)];
  const create = useAdminMutation({ mutationFn: () => createScimEndpoint(orgId), invalidates: changed, successMessage: () => undefined, onSuccess: setIssued });
  const rotate = useAdminMutation({ mutationFn: () => rotateScimToken(orgId), invalidates: changed, successMessage: () => undefined, onSuccess: setIssued });
  const remove = useAdminMutation({ mutationFn: () => deleteScimEndpoint(orgId), invalidates: changed });
  const endpoint = status.data?.scim_endpoint;

  return (
    <SectionCard title={t('scim.title')} description={t('scim.description')}>
      <Stack gap="md">
        {status.isPending && <Skeleton height={120} />}
        {status.isError && <QueryError error={status.error} onRetry={() => void status.refetch()} />}
        {status.data && <CopyableValue label={t('scim.baseUrl')} value={status.data.base_url} testId="scim-base-url" />}
        {status.data && !status.data.exists && (
          <Group justify="space-between" wrap="wrap" gap="sm">
            <Text size="sm" c="dimmed">
              {t('scim.none')}
            </Text>
            <Button leftSection={<IconPlus size={16} />} loading={create.isPending} onClick={() => create.mutate(undefined)}>
              {t('scim.create')}
            </Button>
          </Group>
        )}
        {endpoint && (
          <>
            <DetailTable>
              <DetailRow label={t('scim.token')}>
                <Group gap={6}>
                  <IconKey size={14} />
                  <Text size="sm">{t('scim.tokenHidden')}</Text>
                </Group>
              </DetailRow>
              <DetailRow label={t('scim.rotatedAt')}>{formatTimestamp(endpoint.token_rotated_at)}</DetailRow>
              <DetailRow label={t('scim.lastUsed')}>{endpoint.last_used_at ? formatTimestamp(endpoint.last_used_at) : t('scim.neverUsed')}</DetailRow>
            </DetailTable>
            <Group justify="flex-end" gap="sm">
              <ConfirmButton
                variant="default"
                leftSection={<IconRefresh size={16} />}
                loading={rotate.isPending}
                confirmTitle={t('scim.rotateTitle')}
                confirmBody={t('scim.rotateBody', { org: orgName })}
                confirmLabel={t('scim.rotateConfirm')}
                onConfirm={() => rotate.mutate(undefined)}
              >
                {t('scim.rotate')}
              </ConfirmButton>
              <ConfirmButton
                color="red"
                variant="light"
                leftSection={<IconTrash size={16} />}
                loading={remove.isPending}
                confirmTitle={t('scim.deleteTitle')}
                confirmBody={t('scim.deleteBody', { org: orgName })}
                confirmLabel={t('scim.deleteConfirm')}
                onConfirm={() => remove.mutate(undefined)}
              >
                {t('scim.delete')}
              </ConfirmButton>
            </Group>
          </>
        )}
      </Stack>
      <ScimTokenModal
        issued={issued}
        onDone={() => {
          // Forget the token: nothing keeps it once the dialog is gone (the mutations' own copies included).
          setIssued(undefined);
          create.reset();
          rotate.reset();
        }}
      />
    </SectionCard>
  );
}
