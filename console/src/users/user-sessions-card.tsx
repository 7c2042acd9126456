/**
 * The user's login sessions (`_user_sessions`): when each began, the device it came from (browser and
 * system from its User-Agent, ui-shared/user-agent.ts, and its address), how, when it was last used, until
 * when its cookie holds, and a way to end one at once (`_revoke_session`). Sessions are named by an opaque
 * reference, never their token.
 */
import { useState } from 'react';
import { Badge, Button, Switch, Table, Text, VisuallyHidden } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { revokeSession } from '../api/mutations.ts';
import { queryKeys, useUserSessions } from '../api/queries.ts';
import type { UserSession } from '../api/types.ts';
import { confirmDestructive } from '../common/confirm.tsx';
import { formatTimestamp } from '../common/format.ts';
import { PagedTable } from '../common/paged-table.tsx';
import { useAdminMutation } from '../common/use-admin-mutation.ts';
import { SectionCard } from './section-card.tsx';
import { describeUserAgent } from '../../../ui-shared/user-agent.ts';

const PAGE_SIZE = 5;

function DeviceCell({ session }: { session: UserSession }) {
  const { t } = useTranslation();
  const { browser, os } = describeUserAgent(session.user_agent);
  const device = browser && os ? t('user.sessions.browserOn', { browser, os }) : (browser ?? os ?? session.user_agent ?? t('user.sessions.unknownDevice'));
  return (
    <>
      <Text size="sm" title={session.user_agent ?? undefined} style={{ overflowWrap: 'anywhere' }} data-testid="session-device">
        {device}
      </Text>
      {session.ip_address && (
        <Text size="xs" c="dimmed" data-testid="session-ip">
          {session.ip_address}
        </Text>
      )}
    </>
  );
}

export function UserSessionsCard({ userId }: { userId: string }) {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const [includeRevoked, setIncludeRevoked] = useState(false);
  const sessions = useUserSessions(userId, { page, limit: PAGE_SIZE }, includeRevoked);
  const revoke = useAdminMutation({
    mutationFn: (session: UserSession) => revokeSession(userId, session.id),
    invalidates: [queryKeys.userSessions(userId)],
  });

  const askRevoke = (session: UserSession) =>
    confirmDestructive({
      title: t('user.sessions.revokeConfirmTitle'),
      body: t('user.sessions.revokeConfirmBody', { created: formatTimestamp(session.created_at) }),
      confirmLabel: t('user.sessions.revoke'),
      onConfirm: () => revoke.mutate(session),
    });

  return (
    <SectionCard
      title={t('user.sessions.title')}
      description={t('user.sessions.description')}
      actions={
        <Switch
          label={t('user.sessions.includeRevoked')}
          checked={includeRevoked}
          onChange={(event) => {
            setIncludeRevoked(event.currentTarget.checked);
            setPage(1);
          }}
        />
      }
    >
      <PagedTable
        query={sessions}
        rows={sessions.data?.sessions}
        columns={[
          t('user.sessions.columns.started'),
          t('user.sessions.columns.device'),
          t('user.sessions.columns.method'),
          t('user.sessions.columns.lastUsed'),
          t('user.sessions.columns.expires'),
          t('user.sessions.columns.state'),
          <VisuallyHidden>{t('user.sessions.columns.actions')}</VisuallyHidden>,
        ]}
        renderRow={(session) => {
          const ended = Boolean(session.revoked_at);
          const expired = !ended && session.expires_at * 1000 < Date.now();
          return (
            <Table.Tr data-testid="session-row">
              <Table.Td>
                <Text size="sm">{formatTimestamp(session.created_at)}</Text>
                {session.auth_time !== session.created_at && (
                  <Text size="xs" c="dimmed">
                    {t('user.sessions.signedInAt', { time: formatTimestamp(session.auth_time) })}
                  </Text>
                )}
              </Table.Td>
              <Table.Td>
                <DeviceCell session={session} />
              </Table.Td>
              <Table.Td>
                <Text size="sm">{t(`user.sessions.methods.${session.login_method}`, { defaultValue: session.login_method })}</Text>
              </Table.Td>
              <Table.Td>
                <Text size="sm">{formatTimestamp(session.last_used_at)}</Text>
              </Table.Td>
              <Table.Td>
                <Text size="sm">{formatTimestamp(session.expires_at)}</Text>
              </Table.Td>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>
                <Badge variant="light" color={ended ? 'gray' : expired ? 'yellow' : 'teal'} style={{ overflow: 'visible', maxWidth: 'none', minWidth: 'max-content' }}>
                  {ended
                    ? t('user.sessions.state.revoked', { time: formatTimestamp(session.revoked_at) })
                    : expired
                      ? t('user.sessions.state.cookieExpired')
                      : t('user.sessions.state.active')}
                </Badge>
              </Table.Td>
              <Table.Td ta="right">
                {!ended && (
                  <Button
                    size="xs"
                    variant="subtle"
                    color="red"
                    loading={revoke.isPending && revoke.variables?.id === session.id}
                    onClick={() => askRevoke(session)}
                  >
                    {t('user.sessions.revoke')}
                  </Button>
                )}
              </Table.Td>
            </Table.Tr>
          );
        }}
        label={t('user.sessions.caption')}
        pagerLabel={t('user.sessions.pager')}
        onPage={setPage}
        empty={
          <Text c="dimmed" size="sm" py="sm">
            {t('user.sessions.empty')}
          </Text>
        }
        minWidth={860}
        loadingRows={1}
        spanLoadingRows
        verticalSpacing="xs"
      />
    </SectionCard>
  );
}
