/**
 * The signing keys of the organization's SAML identity provider (docs/api-overview.md#states-and-transitions, IdP key states): each
 * key's state (current signs; published is still in the metadata so SPs can roll over; retired has left it),
 * fingerprint and dates. Rotating asks first, because SPs must refresh the metadata before the old key is
 * retired; retiring is offered on published keys only, and the server's refusal is shown in its own words.
 */
import { Badge, Code, Group, Skeleton, Stack, Table, Text } from '@mantine/core';
import { IconArchive, IconRefresh } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ConfirmButton } from '../common/confirm.tsx';
import { formatTimestamp } from '../common/format.ts';
import { QueryError } from '../common/query-error.tsx';
import { useAdminMutation } from '../common/use-admin-mutation.ts';
import { SectionCard } from '../users/section-card.tsx';
import { retireSamlIdpKey, rotateSamlIdpCert, samlIdpKeys, useSamlIdpKeys, type SamlIdpKey } from './saml-idp-api.ts';

const STATE_COLOR: Record<string, string> = { current: 'teal', published: 'blue', retired: 'gray' };

function KeyRow({ orgId, idpKey }: { orgId: string; idpKey: SamlIdpKey }) {
  const { t } = useTranslation('organizations');
  const queryClient = useQueryClient();
  const retire = useAdminMutation({
    mutationFn: async () => {
      try {
        return await retireSamlIdpKey(orgId, idpKey.id);
      } catch (err) {
        // Refused (retired or rotated meanwhile, from another console or the API): the list catches up with the server.
        void queryClient.invalidateQueries({ queryKey: samlIdpKeys.keys(orgId) });
        throw err;
      }
    },
    invalidates: [samlIdpKeys.keys(orgId)],
    successMessage: () => t('samlIdp.keys.retired'),
  });
  const since = idpKey.retired_at ?? idpKey.demoted_at ?? idpKey.created_at;
  return (
    <Table.Tr data-key-state={idpKey.state}>
      <Table.Td style={{ whiteSpace: 'nowrap' }}>
        <Badge color={STATE_COLOR[idpKey.state] ?? 'gray'} variant="light">
          {t(`samlIdp.keys.state.${idpKey.state}`, { defaultValue: idpKey.state })}
        </Badge>
      </Table.Td>
      <Table.Td>
        <Code style={{ wordBreak: 'break-all' }}>{idpKey.fingerprint_sha256}</Code>
      </Table.Td>
      <Table.Td style={{ whiteSpace: 'nowrap' }}>
        <Text size="sm">{formatTimestamp(idpKey.created_at)}</Text>
        {since !== idpKey.created_at && (
          <Text size="xs" c="dimmed">
            {t(idpKey.retired_at ? 'samlIdp.keys.retiredAt' : 'samlIdp.keys.demotedAt', { when: formatTimestamp(since) })}
          </Text>
        )}
      </Table.Td>
      <Table.Td style={{ whiteSpace: 'nowrap' }}>
        <Text size="sm">{formatTimestamp(idpKey.not_after)}</Text>
      </Table.Td>
      <Table.Td>
        {idpKey.state === 'published' && (
          <ConfirmButton
            size="xs"
            color="red"
            variant="light"
            leftSection={<IconArchive size={14} />}
            loading={retire.isPending}
            confirmTitle={t('samlIdp.keys.retireTitle')}
            confirmBody={t('samlIdp.keys.retireBody')}
            confirmLabel={t('samlIdp.keys.retireConfirm')}
            onConfirm={() => retire.mutate(undefined)}
          >
            {t('samlIdp.keys.retire')}
          </ConfirmButton>
        )}
        {idpKey.state === 'current' && (
          <Text size="xs" c="dimmed">
            {t('samlIdp.keys.signing')}
          </Text>
        )}
      </Table.Td>
    </Table.Tr>
  );
}

export function OrgSamlIdpKeysCard({ orgId, orgName }: { orgId: string; orgName: string }) {
  const { t } = useTranslation('organizations');
  const keys = useSamlIdpKeys(orgId);
  const rotate = useAdminMutation({
    mutationFn: () => rotateSamlIdpCert(orgId),
    invalidates: [samlIdpKeys.keys(orgId)],
    successMessage: () => t('samlIdp.keys.rotated'),
  });
  return (
    <SectionCard
      title={t('samlIdp.keys.title')}
      description={t('samlIdp.keys.description')}
      actions={
        <ConfirmButton
          variant="default"
          leftSection={<IconRefresh size={16} />}
          loading={rotate.isPending}
          disabled={!keys.data}
          confirmTitle={t('samlIdp.keys.rotateTitle')}
          confirmBody={t('samlIdp.keys.rotateBody', { org: orgName })}
          confirmLabel={t('samlIdp.keys.rotateConfirm')}
          onConfirm={() => rotate.mutate(undefined)}
        >
          {t('samlIdp.keys.rotate')}
        </ConfirmButton>
      }
    >
      <Stack gap="md">
        {keys.isPending && <Skeleton height={80} />}
        {keys.isError && <QueryError error={keys.error} onRetry={() => void keys.refetch()} />}
        {keys.data && (
          <Table.ScrollContainer minWidth={860}>
            <Table aria-label={t('samlIdp.keys.caption')} verticalSpacing="sm">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th w={130}>{t('samlIdp.keys.columns.state')}</Table.Th>
                  <Table.Th>{t('samlIdp.keys.columns.fingerprint')}</Table.Th>
                  <Table.Th>{t('samlIdp.keys.columns.created')}</Table.Th>
                  <Table.Th>{t('samlIdp.keys.columns.notAfter')}</Table.Th>
                  <Table.Th aria-hidden />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {keys.data.keys.map((idpKey) => (
                  <KeyRow key={idpKey.id} orgId={orgId} idpKey={idpKey} />
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
        <Group>
          <Text size="xs" c="dimmed">
            {t('samlIdp.keys.hint')}
          </Text>
        </Group>
      </Stack>
    </SectionCard>
  );
}
