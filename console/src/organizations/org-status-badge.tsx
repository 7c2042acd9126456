import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { Organization } from './api.ts';

/** Enabled or disabled (a disabled organization's org-admins and SSO stop working). */
export function OrgStatusBadge({ organization }: { organization: Pick<Organization, 'enabled'> }) {
  const { t } = useTranslation('organizations');
  return (
    <Badge color={organization.enabled ? 'teal' : 'gray'} variant="light">
      {organization.enabled ? t('status.enabled') : t('status.disabled')}
    </Badge>
  );
}
