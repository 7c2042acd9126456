import { Center, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { readBranding } from '../../ui-shared/branding.ts';

export function App() {
  const { t } = useTranslation();
  const branding = readBranding();
  return (
    <Center mih="100vh">
      <Title order={1}>{t('login.title', { organization: branding.organizationName })}</Title>
    </Center>
  );
}
