/**
 * The organization's OIDC single sign-on (specification part 4.2 "Org SSO connections"): the redirect URI to
 * register at the IdP, then the connection's form, which creates the connection when there is none and saves
 * changes otherwise; deleting it confirms first, because SSO sign-ins through it stop at once.
 */
import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { Button, Group, Skeleton, Stack } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { confirmDestructive } from '../common/confirm.tsx';
import { CopyableValue } from '../common/copyable-value.tsx';
import { QueryError } from '../common/query-error.tsx';
import { useAdminMutation } from '../common/use-admin-mutation.ts';
import { SectionCard } from '../users/section-card.tsx';
import type { Organization } from './api.ts';
import { OidcConnectionFormFields, oidcFields, oidcFormValues, type OidcFormValues } from './oidc-connection-form.tsx';
import {
  createOrgOidcConnection, deleteOrgOidcConnection, ssoAddresses, ssoKeys, updateOrgOidcConnection, useOrgOidcConnection, type OrgOidcConnection,
} from './sso-api.ts';

function ConnectionForm({ organization, connection }: { organization: Organization; connection: OrgOidcConnection | null }) {
  const { t } = useTranslation('organizations');
  const queryClient = useQueryClient();
  const form = useForm<OidcFormValues>({ defaultValues: oidcFormValues(connection) });
  useEffect(() => {
    form.reset(oidcFormValues(connection));
  }, [connection, form]);
  const save = useAdminMutation({
    mutationFn: (values: OidcFormValues) =>
      connection ? updateOrgOidcConnection(connection.id, oidcFields(values)) : createOrgOidcConnection(organization.id, oidcFields(values)),
    invalidates: [],
    successMessage: () => (connection ? t('sso.saved') : t('sso.created')),
    onSuccess: (saved) => queryClient.setQueryData(ssoKeys.connection(organization.id), saved),
  });
  const remove = useAdminMutation({
    mutationFn: (id: string) => deleteOrgOidcConnection(id),
    invalidates: [],
    onSuccess: () => queryClient.setQueryData(ssoKeys.connection(organization.id), null),
  });

  return (
    <form onSubmit={form.handleSubmit((values) => save.mutate(values))} noValidate>
      <Stack gap="md">
        <OidcConnectionFormFields form={form} hasSecret={Boolean(connection?.has_client_secret)} />
        <Group justify="space-between" gap="sm">
          {connection ? (
            <Button
              color="red"
              variant="light"
              leftSection={<IconTrash size={16} />}
              loading={remove.isPending}
              onClick={() =>
                confirmDestructive({
                  title: t('sso.deleteTitle'),
                  body: t('sso.deleteBody', { org: organization.display_name, issuer: connection.issuer }),
                  confirmLabel: t('sso.deleteConfirm'),
                  onConfirm: () => remove.mutate(connection.id),
                })
              }
            >
              {t('sso.delete')}
            </Button>
          ) : (
            <span />
          )}
          <Group gap="sm">
            {connection && (
              <Button variant="default" disabled={!form.formState.isDirty || save.isPending} onClick={() => form.reset(oidcFormValues(connection))}>
                {t('translation:common.reset')}
              </Button>
            )}
            <Button type="submit" loading={save.isPending} disabled={Boolean(connection) && !form.formState.isDirty}>
              {connection ? t('sso.save') : t('sso.create')}
            </Button>
          </Group>
        </Group>
      </Stack>
    </form>
  );
}

export function OrgSsoCard({ organization }: { organization: Organization }) {
  const { t } = useTranslation('organizations');
  const connection = useOrgOidcConnection(organization.id);
  const addresses = ssoAddresses(organization.name);
  return (
    <SectionCard title={t('sso.title')} description={connection.data === null ? t('sso.none') : t('sso.description')}>
      <Stack gap="md">
        <CopyableValue label={t('sso.callback')} value={addresses.callback} testId="sso-callback" />
        {connection.isPending && <Skeleton height={200} />}
        {connection.isError && <QueryError error={connection.error} onRetry={() => void connection.refetch()} />}
        {connection.data !== undefined && <ConnectionForm organization={organization} connection={connection.data} />}
      </Stack>
    </SectionCard>
  );
}
