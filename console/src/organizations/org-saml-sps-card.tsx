/**
 * The organization as a SAML identity provider, its service providers: the IdP metadata URL to give each SP
 * (copy, or download the document), then the registered SPs (`_saml_service_providers`, newest first) with
 * their entity id, default ACS, NameID format, mapped attributes and state; registering one (from pasted
 * metadata or by hand), editing one, and deleting one after a confirmation (its sign-ins stop at once).
 */
import { useState } from 'react';
import { ActionIcon, Anchor, Badge, Button, EmptyState, Group, Skeleton, Stack, Table, Text, Tooltip } from '@mantine/core';
import { IconApps, IconDownload, IconPencil, IconPlus, IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { ConfirmActionIcon } from '../common/confirm.tsx';
import { CopyableValue } from '../common/copyable-value.tsx';
import { PagedTable } from '../common/paged-table.tsx';
import { QueryError } from '../common/query-error.tsx';
import { useAdminMutation } from '../common/use-admin-mutation.ts';
import { SectionCard } from '../users/section-card.tsx';
import type { Organization } from './api.ts';
import { deleteSamlServiceProvider, samlIdpKeys, useSamlIdpKeys, useSamlServiceProviders, type SamlServiceProvider } from './saml-idp-api.ts';
import { SamlSpModal } from './saml-sp-modal.tsx';

const PAGE_SIZE = 10;

function ProviderRow({ provider, onEdit }: { provider: SamlServiceProvider; onEdit: () => void }) {
  const { t } = useTranslation('organizations');
  const remove = useAdminMutation({
    mutationFn: () => deleteSamlServiceProvider(provider.id),
    invalidates: [samlIdpKeys.providers(provider.org_id)],
    successMessage: () => t('samlIdp.sp.deleted', { name: provider.name }),
  });
  const acs = provider.acs_endpoints.find((endpoint) => endpoint.is_default) ?? provider.acs_endpoints[0];
  return (
    <Table.Tr>
      <Table.Td>
        <Text size="sm" fw={600}>
          {provider.name}
        </Text>
        <Text size="xs" c="dimmed" style={{ wordBreak: 'break-all' }}>
          {provider.entity_id}
        </Text>
      </Table.Td>
      <Table.Td>
        <Text size="xs" style={{ wordBreak: 'break-all' }}>
          {acs?.url}
        </Text>
        {provider.acs_endpoints.length > 1 && (
          <Text size="xs" c="dimmed">
            {t('samlIdp.sp.moreAcs', { count: provider.acs_endpoints.length - 1 })}
          </Text>
        )}
      </Table.Td>
      <Table.Td>
        <Group gap={4}>
          <Badge variant="outline" size="sm" tt="none">
            {provider.name_id_format}
          </Badge>
          {provider.certificate_fingerprint_sha256 && (
            <Badge variant="light" color="grape" size="sm" tt="none">
              {t('samlIdp.sp.signsRequests')}
            </Badge>
          )}
        </Group>
        <Text size="xs" c="dimmed">
          {provider.attribute_mapping.length === 0
            ? t('samlIdp.sp.noAttributes')
            : provider.attribute_mapping.map((row) => `${row.field} → ${row.attribute}`).join(', ')}
        </Text>
      </Table.Td>
      <Table.Td>
        <Badge color={provider.active ? 'teal' : 'gray'} variant="light">
          {provider.active ? t('samlIdp.sp.activeState') : t('samlIdp.sp.inactiveState')}
        </Badge>
      </Table.Td>
      <Table.Td>
        <Group gap={4} wrap="nowrap" justify="flex-end">
          <Tooltip label={t('samlIdp.sp.edit')} withArrow>
            <ActionIcon variant="subtle" onClick={onEdit} aria-label={t('samlIdp.sp.editOf', { name: provider.name })}>
              <IconPencil size={16} />
            </ActionIcon>
          </Tooltip>
          <ConfirmActionIcon
            label={t('samlIdp.sp.delete', { name: provider.name })}
            loading={remove.isPending}
            confirmTitle={t('samlIdp.sp.deleteTitle', { name: provider.name })}
            confirmBody={t('samlIdp.sp.deleteBody', { name: provider.name })}
            confirmLabel={t('samlIdp.sp.deleteConfirm')}
            onConfirm={() => remove.mutate(undefined)}
          >
            <IconTrash size={16} />
          </ConfirmActionIcon>
        </Group>
      </Table.Td>
    </Table.Tr>
  );
}

/** The metadata document is public (GET /saml/<org>/metadata): the link downloads it under the slug's name. */
function IdpAddresses({ orgId, slug }: { orgId: string; slug: string }) {
  const { t } = useTranslation('organizations');
  const keys = useSamlIdpKeys(orgId);
  if (keys.isPending) return <Skeleton height={120} />;
  if (keys.isError) return <QueryError error={keys.error} onRetry={() => void keys.refetch()} />;
  return (
    <Stack gap="sm">
      <CopyableValue label={t('samlIdp.metadataUrl')} value={keys.data.metadata_url} testId="saml-idp-metadata-url" />
      <Group gap="xs">
        <Anchor href={keys.data.metadata_url} download={`${slug}-idp-metadata.xml`} size="sm">
          <Group gap={4} component="span">
            <IconDownload size={16} />
            {t('samlIdp.download')}
          </Group>
        </Anchor>
      </Group>
      <CopyableValue label={t('samlIdp.ssoUrl')} value={keys.data.sso_url} testId="saml-idp-sso-url" />
    </Stack>
  );
}

export function OrgSamlSpsCard({ organization }: { organization: Organization }) {
  const { t } = useTranslation('organizations');
  const [page, setPage] = useState(1);
  const providers = useSamlServiceProviders(organization.id, { page, limit: PAGE_SIZE });
  // undefined: closed; null: registering; a provider: editing it.
  const [editing, setEditing] = useState<SamlServiceProvider | null | undefined>();

  return (
    <SectionCard
      title={t('samlIdp.title')}
      description={t('samlIdp.description')}
      actions={
        <Button leftSection={<IconPlus size={16} />} variant="light" onClick={() => setEditing(null)}>
          {t('samlIdp.sp.add')}
        </Button>
      }
    >
      <Stack gap="md">
        <IdpAddresses orgId={organization.id} slug={organization.name} />
        <div>
          <PagedTable
            query={providers}
            rows={providers.data?.service_providers}
            columns={[t('samlIdp.sp.columns.provider'), t('samlIdp.sp.columns.acs'), t('samlIdp.sp.columns.assertion'), t('samlIdp.sp.columns.state'), null]}
            renderRow={(provider) => <ProviderRow provider={provider} onEdit={() => setEditing(provider)} />}
            label={t('samlIdp.sp.caption')}
            pagerLabel={t('samlIdp.sp.pager')}
            onPage={setPage}
            empty={<EmptyState size="sm" icon={<IconApps size={28} />} withIndicatorBackground title={t('samlIdp.sp.empty')} py="lg" />}
            minWidth={760}
            loadingRows={2}
          />
        </div>
      </Stack>
      <SamlSpModal opened={editing !== undefined} orgId={organization.id} provider={editing ?? undefined} onClose={() => setEditing(undefined)} />
    </SectionCard>
  );
}
