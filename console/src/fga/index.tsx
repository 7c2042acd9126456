/**
 * The console's FGA section (routed at /dashboard/fga/*) and the GraphQL playground page (/dashboard/playground).
 * The section's tabs follow the URL (fga/, fga/tuples, fga/tester), so each can be linked to and the
 * browser's back button moves between them.
 */
import { lazy, Suspense } from 'react';
import { Box, Center, Loader, Skeleton, Stack, Tabs } from '@mantine/core';
import { IconCode, IconListDetails, IconShieldCheck } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Navigate, useLocation, useNavigate, useParams } from 'react-router';
import { PageHeader } from '../common/page-header.tsx';

// Each tab is fetched when it opens, not with the console: CodeMirror and the parser are most of the
// section's weight (about 900 KB), the other two tabs some 60 KB the console's first load need not carry.
const ModelEditor = lazy(() => import('./model-editor.tsx').then((module) => ({ default: module.ModelEditor })));
const TupleBrowser = lazy(() => import('./tuple-browser.tsx').then((module) => ({ default: module.TupleBrowser })));
const Tester = lazy(() => import('./tester.tsx').then((module) => ({ default: module.Tester })));

const TABS = ['model', 'tuples', 'tester'] as const;
type Tab = (typeof TABS)[number];

/**
 * The section's own path (e.g. /fga), from the current location minus the part the `fga/*` route matched,
 * so navigation stays right whatever prefix the shell mounts the section under.
 */
function useSectionPath(): { base: string; rest: string } {
  const rest = useParams()['*'] ?? '';
  const { pathname } = useLocation();
  const base = pathname.slice(0, pathname.length - rest.length).replace(/\/+$/, '');
  return { base, rest: rest.replace(/\/+$/, '') };
}

export function FgaPage() {
  const { t } = useTranslation('fga');
  const navigate = useNavigate();
  const { base, rest } = useSectionPath();
  const tab: Tab | undefined = rest === '' ? 'model' : TABS.find((name) => name !== 'model' && name === rest);
  if (!tab) return <Navigate to={base} replace />;

  return (
    <Stack gap={0}>
      <PageHeader title={t('title')} description={t('intro')} />
      <Tabs value={tab} onChange={(value) => navigate(value === 'model' || !value ? base : `${base}/${value}`)} keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="model" leftSection={<IconCode size={16} />}>{t('tabs.model')}</Tabs.Tab>
          <Tabs.Tab value="tuples" leftSection={<IconListDetails size={16} />}>{t('tabs.tuples')}</Tabs.Tab>
          <Tabs.Tab value="tester" leftSection={<IconShieldCheck size={16} />}>{t('tabs.tester')}</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="model" pt="lg">
          <Suspense fallback={<TabLoading />}>
            <ModelEditor />
          </Suspense>
        </Tabs.Panel>
        <Tabs.Panel value="tuples" pt="lg">
          <Suspense fallback={<TabLoading />}>
            <TupleBrowser />
          </Suspense>
        </Tabs.Panel>
        <Tabs.Panel value="tester" pt="lg">
          <Suspense fallback={<TabLoading />}>
            <Tester />
          </Suspense>
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}

function TabLoading() {
  const { t } = useTranslation('fga');
  return <Skeleton height={420} radius="md" aria-label={t('loading')} />;
}

const Playground = lazy(() => import('./playground.tsx'));

export function PlaygroundPage() {
  const { t } = useTranslation('fga');
  return (
    // The editor fills the main area below the shell's header (AppShell's own variables).
    <Stack gap={0} h="calc(100dvh - var(--app-shell-header-offset, 0rem) - 2 * var(--app-shell-padding, 0rem))" mih={560}>
      <PageHeader title={t('playground.title')} description={t('playground.intro')} />
      <Box bg="white" style={{ flex: 1, minHeight: 0, border: '1px solid var(--mantine-color-gray-3)', borderRadius: 'var(--mantine-radius-md)', overflow: 'hidden' }}>
        <Suspense
          fallback={
            <Center h="100%" role="status" aria-label={t('playground.loading')}>
              <Loader />
            </Center>
          }
        >
          <Playground />
        </Suspense>
      </Box>
    </Stack>
  );
}
