/**
 * One organization, in tabs kept in the URL (?tab=, so a reload or a shared link opens the same one): its
 * settings and deletion, members, verified domains, OIDC and SAML single sign-on, the SCIM endpoint, and the
 * organization as a SAML identity provider (its service providers and signing keys).
 * Only the open tab is mounted, so only its data is read.
 */
import { Code, Group, Stack, Tabs } from '@mantine/core';
import { IconAdjustments, IconApps, IconKey, IconRefreshDot, IconUsersGroup, IconWorldWww } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useParams, useSearchParams } from 'react-router';
import { PageHeader } from '../common/page-header.tsx';
import { RecordPage } from '../common/record-page.tsx';
import { useOrganization } from './api.ts';
import { OrgDeleteCard } from './org-delete-card.tsx';
import { OrgDomainsCard } from './org-domains-card.tsx';
import { OrgMembersCard } from './org-members-card.tsx';
import { OrgSamlCard } from './org-saml-card.tsx';
import { OrgSamlIdpKeysCard } from './org-saml-idp-keys-card.tsx';
import { OrgSamlSpsCard } from './org-saml-sps-card.tsx';
import { OrgScimCard } from './org-scim-card.tsx';
import { OrgSettingsCard } from './org-settings-card.tsx';
import { OrgSsoCard } from './org-sso-card.tsx';
import { OrgStatusBadge } from './org-status-badge.tsx';

const TABS = ['settings', 'members', 'domains', 'sso', 'scim', 'saml-idp'] as const;
type Tab = (typeof TABS)[number];

export function OrganizationPage() {
  const { t } = useTranslation('organizations');
  const { organizationId = '' } = useParams();
  const [params, setParams] = useSearchParams();
  const asked = params.get('tab');
  const tab: Tab = TABS.includes(asked as Tab) ? (asked as Tab) : 'settings';
  const organizationQuery = useOrganization(organizationId);

  return (
    <RecordPage backTo="/organizations" backLabel={t('back')} query={organizationQuery} loadingHeights={[240, 160]}>
      {(organization) => (
        <>
          <PageHeader
            title={organization.display_name}
            actions={
              <Group gap="sm">
                <Code>{organization.name}</Code>
                <OrgStatusBadge organization={organization} />
              </Group>
            }
          />
          <Tabs value={tab} onChange={(next) => setParams(next && next !== 'settings' ? { tab: next } : {}, { replace: true })} keepMounted={false}>
            <Tabs.List mb="lg">
              <Tabs.Tab value="settings" leftSection={<IconAdjustments size={16} />}>
                {t('tabs.settings')}
              </Tabs.Tab>
              <Tabs.Tab value="members" leftSection={<IconUsersGroup size={16} />}>
                {t('tabs.members')}
              </Tabs.Tab>
              <Tabs.Tab value="domains" leftSection={<IconWorldWww size={16} />}>
                {t('tabs.domains')}
              </Tabs.Tab>
              <Tabs.Tab value="sso" leftSection={<IconKey size={16} />}>
                {t('tabs.sso')}
              </Tabs.Tab>
              <Tabs.Tab value="scim" leftSection={<IconRefreshDot size={16} />}>
                {t('tabs.scim')}
              </Tabs.Tab>
              <Tabs.Tab value="saml-idp" leftSection={<IconApps size={16} />}>
                {t('tabs.samlIdp')}
              </Tabs.Tab>
            </Tabs.List>
            <Tabs.Panel value="settings">
              <Stack gap="lg">
                <OrgSettingsCard organization={organization} />
                <OrgDeleteCard organization={organization} />
              </Stack>
            </Tabs.Panel>
            <Tabs.Panel value="members">
              <OrgMembersCard organization={organization} />
            </Tabs.Panel>
            <Tabs.Panel value="domains">
              <OrgDomainsCard orgId={organization.id} />
            </Tabs.Panel>
            <Tabs.Panel value="sso">
              <Stack gap="lg">
                <OrgSsoCard organization={organization} />
                <OrgSamlCard organization={organization} />
              </Stack>
            </Tabs.Panel>
            <Tabs.Panel value="scim">
              <OrgScimCard orgId={organization.id} orgName={organization.display_name} />
            </Tabs.Panel>
            <Tabs.Panel value="saml-idp">
              <Stack gap="lg">
                <OrgSamlSpsCard organization={organization} />
                <OrgSamlIdpKeysCard orgId={organization.id} orgName={organization.display_name} />
              </Stack>
            </Tabs.Panel>
          </Tabs>
        </>
      )}
    </RecordPage>
  );
}
