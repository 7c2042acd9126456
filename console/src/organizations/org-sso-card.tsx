/**
 * The organization's OIDC single sign-on (docs/operations.md, "Org SSO connections"): the redirect URI to
 * register at the IdP, then the connection's form, which creates the connection when there is none and saves
 * changes otherwise; deleting it confirms first, because SSO sign-ins through it stop at once.
 */
import { Skeleton, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { CopyableValue } from '../common/copyable-value.tsx';
import { QueryError } from '../common/query-error.tsx';
import { SectionCard } from '../users/section-card.tsx';
import type { Organization } from './api.ts';
import { ConnectionForm, type ConnectionApi } from './connection-form.tsx';
import { OidcConnectionFormFields, oidcFields, oidcFormValues, type OidcFormValues } from './oidc-connection-form.tsx';
import {
  createOrgOidcConnection, deleteOrgOidcConnection, ssoAddresses, ssoKeys, updateOrgOidcConnection, useOrgOidcConnection, type OrgOidcConnection,
} from './sso-api.ts';

const oidcApi: ConnectionApi<OidcFormValues, OrgOidcConnection> = {
  create: (orgId, values) => createOrgOidcConnection(orgId, oidcFields(values)),
  update: (id, values) => updateOrgOidcConnection(id, oidcFields(values)),
  remove: deleteOrgOidcConnection,
};

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
        {connection.data !== undefined && (
          <ConnectionForm
            organization={organization}
            connection={connection.data}
            api={oidcApi}
            queryKey={ssoKeys.connection(organization.id)}
            formValues={oidcFormValues}
            kind="sso"
            issuer={(saved) => saved.issuer}
          >
            {(form) => <OidcConnectionFormFields form={form} hasSecret={Boolean(connection.data?.has_client_secret)} />}
          </ConnectionForm>
        )}
      </Stack>
    </SectionCard>
  );
}
