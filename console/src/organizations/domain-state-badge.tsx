import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** pending (the TXT record is not proven yet) or verified (the domain routes sign-ins to the organization). */
export function DomainStateBadge({ state }: { state: string }) {
  const { t } = useTranslation('organizations');
  const verified = state === 'verified';
  return (
    <Badge color={verified ? 'teal' : 'yellow'} variant="light">
      {verified ? t('domains.state.verified') : t('domains.state.pending')}
    </Badge>
  );
}
