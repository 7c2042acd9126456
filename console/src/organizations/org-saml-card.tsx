/**
 * The organization's SAML 2.0 single sign-on, this server as the service provider: the SP's entity ID
 * (its metadata URL) and ACS URL to register at the IdP, the IdP certificates held (by fingerprint), then the
 * connection's form, which creates it when there is none and saves changes otherwise; deleting it confirms
 * first, because SAML sign-ins through it stop at once. With both connections enabled, sign-ins go to OIDC.
 */
import { Badge, Code, Group, Skeleton, Stack, Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { CopyableValue } from '../common/copyable-value.tsx';
import { formatTimestamp } from '../common/format.ts';
import { QueryError } from '../common/query-error.tsx';
import { SectionCard } from '../users/section-card.tsx';
import type { Organization } from './api.ts';
import { ConnectionForm, type ConnectionApi } from './connection-form.tsx';
import { SamlConnectionFormFields, samlFields, samlFormValues, type SamlFormValues } from './saml-connection-form.tsx';
import {
  createOrgSamlConnection, deleteOrgSamlConnection, samlKeys, samlSpAddresses, updateOrgSamlConnection, useOrgSamlConnection,
  type OrgSamlConnection, type SamlIdpCertificate,
} from './saml-api.ts';

const samlApi: ConnectionApi<SamlFormValues, OrgSamlConnection> = {
  create: (orgId, values) => createOrgSamlConnection(orgId, samlFields(values)),
  update: (id, values) => updateOrgSamlConnection(id, samlFields(values)),
  remove: deleteOrgSamlConnection,
};

function Certificates({ certificates }: { certificates: SamlIdpCertificate[] }) {
  const { t } = useTranslation('organizations');
  const now = Date.now() / 1000;
  return (
    <Table aria-label={t('saml.certificates')} verticalSpacing="xs">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>{t('saml.subject')}</Table.Th>
          <Table.Th>{t('saml.fingerprint')}</Table.Th>
          <Table.Th>{t('saml.notAfter')}</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {certificates.map((certificate) => (
          <Table.Tr key={certificate.fingerprint_sha256}>
            <Table.Td>
              <Text size="sm">{certificate.subject}</Text>
            </Table.Td>
            <Table.Td>
              <Code style={{ wordBreak: 'break-all' }}>{certificate.fingerprint_sha256}</Code>
            </Table.Td>
            <Table.Td>
              <Group gap={6} wrap="nowrap">
                <Text size="sm">{formatTimestamp(certificate.not_after)}</Text>
                {certificate.not_after < now && (
                  <Badge color="red" variant="light" size="sm">
                    {t('saml.expired')}
                  </Badge>
                )}
              </Group>
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

export function OrgSamlCard({ organization }: { organization: Organization }) {
  const { t } = useTranslation('organizations');
  const connection = useOrgSamlConnection(organization.id);
  const computed = samlSpAddresses(organization.name);
  const entityId = connection.data?.sp_entity_id ?? computed.entityId;
  const acsUrl = connection.data?.sp_acs_url ?? computed.acsUrl;
  return (
    <SectionCard title={t('saml.title')} description={connection.data === null ? t('saml.none') : t('saml.description')}>
      <Stack gap="md">
        <CopyableValue label={t('saml.spEntityId')} value={entityId} testId="saml-sp-entity-id" />
        <CopyableValue label={t('saml.spAcsUrl')} value={acsUrl} testId="saml-sp-acs-url" />
        {connection.isPending && <Skeleton height={200} />}
        {connection.isError && <QueryError error={connection.error} onRetry={() => void connection.refetch()} />}
        {connection.data && connection.data.idp_certificates.length > 0 && <Certificates certificates={connection.data.idp_certificates} />}
        {connection.data !== undefined && (
          <ConnectionForm
            organization={organization}
            connection={connection.data}
            api={samlApi}
            queryKey={samlKeys.connection(organization.id)}
            formValues={samlFormValues}
            kind="saml"
            issuer={(saved) => saved.idp_entity_id}
          >
            {(form) => <SamlConnectionFormFields form={form} existing={Boolean(connection.data)} />}
          </ConnectionForm>
        )}
      </Stack>
    </SectionCard>
  );
}
