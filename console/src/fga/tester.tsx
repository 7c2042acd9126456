/** The tester tab: a check and a list-objects question side by side (stacked on a narrow screen). */
import { SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { CheckTester } from './check-tester.tsx';
import { ListObjectsTester } from './list-objects-tester.tsx';

export function Tester() {
  const { t } = useTranslation('fga');
  return (
    <Stack gap="md">
      <Title order={2}>{t('tester.title')}</Title>
      <Text c="dimmed" size="sm">{t('tester.intro')}</Text>
      <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="md">
        <CheckTester />
        <ListObjectsTester />
      </SimpleGrid>
    </Stack>
  );
}
