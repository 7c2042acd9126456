/**
 * The Security page's sessions (docs/tokens.md#a-users-own-sessions): every place this account is signed in,
 * the browser and system each came from (ui-shared/user-agent.ts), its address, when it signed in and was
 * last active; "This device" marks the session this page runs in. Each can be signed out (this device's is a
 * sign-out of this page too), and all the others at once. Ending another session needs a recent sign-in: the
 * server's refusal says so and is shown as it comes.
 *
 * A session renews itself when its browser loads a page (the `session` query opens a new row, with a new
 * reference), so a list shown for a while may name a session that no longer exists under that reference: the
 * server then answers not found, and the list is read again instead of showing a bare error. The list is read
 * again too whenever the page regains focus.
 */
import { Badge, Button, Group, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconDeviceDesktop, IconDeviceMobile, IconLogout } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../ui-shared/graphql-client.ts';
import { describeUserAgent } from '../../../ui-shared/user-agent.ts';
import { mySessions, revokeMyOtherSessions, revokeMySession, type MySession } from '../api/session-operations.ts';
import { setSignedOut } from '../api/queries.ts';
import { FormError } from '../layout/form-error.tsx';
import { relativeTime } from './relative-time.ts';

export const MY_SESSIONS_KEY = ['my-sessions'] as const;

const MOBILE_SYSTEMS = new Set(['iOS', 'Android']);

/** The session ended or renewed itself since the list was read (its reference is unknown now). */
function isGone(error: unknown): boolean {
  return error instanceof ApiError && error.code === 'NOT_FOUND';
}

function SessionRow({ session, onSignOut, pending }: { session: MySession; onSignOut: () => void; pending: boolean }) {
  const { t, i18n } = useTranslation();
  const { browser, os } = describeUserAgent(session.user_agent);
  const device =
    browser && os ? t('sessions.browserOn', { browser, os }) : (browser ?? os ?? (session.user_agent ? session.user_agent : t('sessions.unknownDevice')));
  const details = [
    session.ip_address,
    t('sessions.signedIn', { when: relativeTime(session.created_at, i18n.language) }),
    t('sessions.lastActive', { when: relativeTime(session.last_used_at, i18n.language) }),
  ].filter(Boolean);
  return (
    <Paper withBorder radius="md" px="md" py="xs" data-testid="session-row" data-current={session.current ? 'true' : 'false'}>
      <Group justify="space-between" wrap="nowrap" gap="sm">
        <Group wrap="nowrap" gap="sm" miw={0} style={{ flex: 1 }}>
          {/* Phone-width screens leave the room to the device's name and details. */}
          <ThemeIcon variant="light" size={32} radius="md" color={session.current ? 'teal' : undefined} visibleFrom="xs">
            {os && MOBILE_SYSTEMS.has(os) ? <IconDeviceMobile size={18} aria-hidden /> : <IconDeviceDesktop size={18} aria-hidden />}
          </ThemeIcon>
          <Stack gap={0} miw={0}>
            <Group gap="xs" wrap="wrap">
              <Text fz="sm" fw={600} title={session.user_agent ?? undefined} style={{ overflowWrap: 'anywhere' }} data-testid="session-device">
                {device}
              </Text>
              {session.current ? (
                <Badge size="sm" variant="light" color="teal" style={{ flexShrink: 0, overflow: 'visible' }} data-testid="session-this-device">
                  {t('sessions.thisDevice')}
                </Badge>
              ) : null}
            </Group>
            <Text fz="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
              {details.join(' · ')}
            </Text>
          </Stack>
        </Group>
        <Button
          size="xs"
          variant="subtle"
          color="red"
          leftSection={<IconLogout size={14} />}
          loading={pending}
          style={{ flexShrink: 0 }}
          aria-label={session.current ? t('sessions.signOutThisLabel') : t('sessions.signOutLabel', { device })}
          onClick={onSignOut}
        >
          {t('sessions.signOut')}
        </Button>
      </Group>
    </Paper>
  );
}

export function SessionsSection() {
  const { t } = useTranslation();
  const client = useQueryClient();
  const list = useQuery({ queryKey: MY_SESSIONS_KEY, queryFn: mySessions, refetchOnWindowFocus: true });
  const refresh = () => client.invalidateQueries({ queryKey: MY_SESSIONS_KEY });
  const revokeOne = useMutation({
    mutationFn: (session: MySession) => revokeMySession(session.id),
    onSuccess: async (_answer, session) => {
      // This device's session ended: the page is signed out like any sign-out (the screen gate moves on).
      if (session.current) setSignedOut(client);
      else await refresh();
    },
    onError: async (error) => {
      if (isGone(error)) await refresh();
    },
  });
  const revokeOthers = useMutation({ mutationFn: revokeMyOtherSessions, onSuccess: refresh });
  const failed = revokeOne.error ?? revokeOthers.error;
  const sessions = list.data ?? [];
  const others = sessions.filter((session) => !session.current).length;
  return (
    <Stack gap="xs" data-testid="sessions-section">
      <Title order={2} fz="md">
        {t('sessions.title')}
      </Title>
      <Text fz="xs" c="dimmed">
        {t('sessions.subtitle')}
      </Text>
      <FormError title={t('sessions.loadFailed')} error={list.error} />
      <FormError title={t('sessions.signOutFailed')} error={isGone(failed) ? new Error(t('sessions.gone')) : failed} />
      {sessions.map((session) => (
        <SessionRow
          key={session.id}
          session={session}
          pending={revokeOne.isPending && revokeOne.variables?.id === session.id}
          onSignOut={() => {
            revokeOthers.reset();
            revokeOne.mutate(session);
          }}
        />
      ))}
      {others > 0 ? (
        <Button
          variant="light"
          color="red"
          size="xs"
          style={{ alignSelf: 'flex-start' }}
          loading={revokeOthers.isPending}
          onClick={() => {
            revokeOne.reset();
            revokeOthers.mutate();
          }}
          data-testid="sessions-sign-out-others"
        >
          {t('sessions.signOutOthers')}
        </Button>
      ) : null}
    </Stack>
  );
}
