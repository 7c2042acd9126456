/**
 * The signed-in frame: header with the organization's name and sign out, navbar of the sections, the page in
 * the main area. Below the `sm` breakpoint the navbar folds behind a burger (responsive to 375 px).
 */
import { ActionIcon, AppShell, Avatar, Burger, Button, Group, NavLink, ScrollArea, Text, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconLogout, IconShieldLock } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, Outlet, useLocation } from 'react-router';
import { readBranding } from '../../../ui-shared/branding.ts';
import { adminLogout } from '../api/mutations.ts';
import { queryKeys } from '../api/queries.ts';
import { useAdminMutation } from '../common/use-admin-mutation.ts';
import type { ConsoleSection } from './section.ts';
import { ChannelNotice } from '../settings/channel-notice.tsx';

/** `sections`: those this instance shows, in navbar order (console/src/sections.ts). */
export function ConsoleShell({ sections }: { sections: readonly ConsoleSection[] }) {
  const { t } = useTranslation();
  const branding = readBranding();
  const location = useLocation();
  const queryClient = useQueryClient();
  const [opened, { toggle, close }] = useDisclosure(false);
  const signOut = useAdminMutation({
    mutationFn: () => adminLogout(),
    invalidates: [],
    successMessage: () => undefined,
    onSuccess: () => {
      // Drop every cached answer: nothing an admin saw stays in memory for the next person at this screen.
      queryClient.setQueryData(queryKeys.adminSession, false);
      queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== queryKeys.adminSession[0] });
    },
  });

  return (
    <AppShell header={{ height: 60 }} navbar={{ width: 250, breakpoint: 'sm', collapsed: { mobile: !opened } }} padding="lg">
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap" miw={0}>
            <Burger opened={opened} onClick={toggle} hiddenFrom="sm" size="sm" aria-label={t(opened ? 'shell.closeMenu' : 'shell.openMenu')} />
            {branding.organizationLogo ? (
              <Avatar src={branding.organizationLogo} alt="" radius="sm" size="sm" />
            ) : (
              <Avatar color="portcullis" radius="sm" size="sm" aria-hidden>
                <IconShieldLock size={16} />
              </Avatar>
            )}
            <Text fw={650} truncate>
              {t('shell.title', { organization: branding.organizationName })}
            </Text>
          </Group>
          <Button
            variant="subtle"
            color="gray"
            leftSection={<IconLogout size={16} />}
            onClick={() => signOut.mutate(undefined)}
            loading={signOut.isPending}
            visibleFrom="xs"
          >
            {t('shell.signOut')}
          </Button>
          <ActionIcon
            variant="subtle"
            color="gray"
            size="lg"
            aria-label={t('shell.signOut')}
            onClick={() => signOut.mutate(undefined)}
            loading={signOut.isPending}
            hiddenFrom="xs"
          >
            <IconLogout size={18} />
          </ActionIcon>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="sm" aria-label={t('shell.navigation')}>
        <AppShell.Section grow component={ScrollArea}>
          <Title order={2} size="xs" tt="uppercase" c="dimmed" px="sm" py="xs">
            {t('shell.manage')}
          </Title>
          {sections.map(({ path, nav }) => {
            if (!nav) return null;
            const to = `/${path}`;
            const active = location.pathname === to || location.pathname.startsWith(`${to}/`);
            return (
              <NavLink
                key={to}
                component={Link}
                to={to}
                label={t(nav.labelKey)}
                leftSection={<nav.icon size={18} stroke={1.6} />}
                active={active}
                aria-current={active ? 'page' : undefined}
                onClick={close}
                variant="light"
              />
            );
          })}
        </AppShell.Section>
      </AppShell.Navbar>
      <AppShell.Main bg="var(--mantine-color-gray-0)">
        <ChannelNotice />
        <Outlet />
      </AppShell.Main>
    </AppShell>
  );
}
