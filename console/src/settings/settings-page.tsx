/**
 * Instance settings as `_admin_meta` reports them, read-only and grouped: they are set by
 * command-line flags (README "Configuration"), so the page says so instead of offering edits.
 */
import { Badge, Code, Group, Paper, SimpleGrid, Skeleton, Stack, Table, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useAdminMeta } from '../api/queries.ts';
import type { AdminMeta, AdminMetaFlag } from '../api/types.ts';
import { PageHeader } from '../common/page-header.tsx';
import { QueryError } from '../common/query-error.tsx';
import { SETTINGS_GROUPS } from './settings-groups.ts';

function RoleList({ roles }: { roles: string[] }) {
  const { t } = useTranslation();
  if (roles.length === 0) return <Text size="sm" c="dimmed">{t('common.none')}</Text>;
  return (
    <Group gap={4}>
      {roles.map((role) => (
        <Badge key={role} variant="outline" tt="none">
          {role}
        </Badge>
      ))}
    </Group>
  );
}

function FlagTable({ meta, flags, caption }: { meta: AdminMeta; flags: AdminMetaFlag[]; caption: string }) {
  const { t } = useTranslation();
  return (
    <Table verticalSpacing={6} aria-label={caption}>
      <Table.Tbody>
        {flags.map((flag) => (
          <Table.Tr key={flag}>
            <Table.Th scope="row" fw={400}>
              <Text size="sm">{t(`settings.flags.${flag}`, { defaultValue: flag })}</Text>
            </Table.Th>
            <Table.Td ta="right">
              <Badge variant="light" color={meta[flag] ? 'teal' : 'gray'}>
                {meta[flag] ? t('common.on') : t('common.off')}
              </Badge>
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

export function SettingsPage() {
  const { t } = useTranslation();
  const meta = useAdminMeta();

  return (
    <>
      <PageHeader title={t('settings.title')} description={t('settings.description')} />
      {meta.isPending && <Skeleton height={320} radius="md" />}
      {meta.isError && <QueryError error={meta.error} onRetry={() => void meta.refetch()} />}
      {meta.data && (
        <Stack gap="lg">
          <Paper withBorder radius="md" p="lg" component="section">
            <Title order={2} size="h4" mb="md">
              {t('settings.groups.instance')}
            </Title>
            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg">
              <Stack gap={4}>
                <Text size="xs" c="dimmed" tt="uppercase" fw={600}>{t('settings.version')}</Text>
                <Code data-testid="server-version">{meta.data.server_version}</Code>
              </Stack>
              <Stack gap={4}>
                <Text size="xs" c="dimmed" tt="uppercase" fw={600}>{t('settings.apiVersion')}</Text>
                <Code data-testid="api-version">{meta.data.version}</Code>
              </Stack>
              <Stack gap={4}>
                <Text size="xs" c="dimmed" tt="uppercase" fw={600}>{t('settings.clientId')}</Text>
                <Code>{meta.data.client_id}</Code>
              </Stack>
              <Stack gap={4}>
                <Text size="xs" c="dimmed" tt="uppercase" fw={600}>{t('settings.roles')}</Text>
                <RoleList roles={meta.data.roles} />
              </Stack>
              <Stack gap={4}>
                <Text size="xs" c="dimmed" tt="uppercase" fw={600}>{t('settings.defaultRoles')}</Text>
                <RoleList roles={meta.data.default_roles} />
              </Stack>
              <Stack gap={4}>
                <Text size="xs" c="dimmed" tt="uppercase" fw={600}>{t('settings.protectedRoles')}</Text>
                <RoleList roles={meta.data.protected_roles} />
              </Stack>
            </SimpleGrid>
          </Paper>
          <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
            {SETTINGS_GROUPS.map((group) => (
              <Paper key={group.key} withBorder radius="md" p="lg" component="section">
                <Title order={2} size="h4" mb="sm">
                  {t(`settings.groups.${group.key}`)}
                </Title>
                <FlagTable meta={meta.data} flags={group.flags} caption={t(`settings.groups.${group.key}`)} />
              </Paper>
            ))}
          </SimpleGrid>
        </Stack>
      )}
    </>
  );
}
