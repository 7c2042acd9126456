/**
 * One organization: its settings, members, verified domains, OIDC and SAML single sign-on, SCIM endpoint,
 * and deletion.
 */
import { Anchor, Code, Group, Skeleton, Stack } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { PageHeader } from '../common/page-header.tsx';
import { QueryError } from '../common/query-error.tsx';
import { useOrganization } from './api.ts';
import { OrgDeleteCard } from './org-delete-card.tsx';
import { OrgDomainsCard } from './org-domains-card.tsx';
import { OrgMembersCard } from './org-members-card.tsx';
import { OrgSamlCard } from './org-saml-card.tsx';
import { OrgScimCard } from './org-scim-card.tsx';
import { OrgSettingsCard } from './org-settings-card.tsx';
import { OrgSsoCard } from './org-sso-card.tsx';
import { OrgStatusBadge } from './org-status-badge.tsx';

export function OrganizationPage() {
  const { t } = useTranslation('organizations');
  const { organizationId = '' } = useParams();
  const organization = useOrganization(organizationId);

  return (
    <Stack gap="lg">
      <Anchor component={Link} to="/organizations" size="sm">
        <Group gap={4} component="span">
          <IconArrowLeft size={14} />
          {t('back')}
        </Group>
      </Anchor>
      {organization.isPending && (
        <Stack>
          <Skeleton height={32} width="40%" />
          <Skeleton height={240} />
          <Skeleton height={160} />
        </Stack>
      )}
      {organization.isError && <QueryError error={organization.error} onRetry={() => void organization.refetch()} />}
      {organization.data && (
        <>
          <PageHeader
            title={organization.data.display_name}
            description={undefined}
            actions={
              <Group gap="sm">
                <Code>{organization.data.name}</Code>
                <OrgStatusBadge organization={organization.data} />
              </Group>
            }
          />
          <OrgSettingsCard organization={organization.data} />
          <OrgMembersCard organization={organization.data} />
          <OrgDomainsCard orgId={organization.data.id} />
          <OrgSsoCard organization={organization.data} />
          <OrgSamlCard organization={organization.data} />
          <OrgScimCard orgId={organization.data.id} orgName={organization.data.display_name} />
          <OrgDeleteCard organization={organization.data} />
        </>
      )}
    </Stack>
  );
}
