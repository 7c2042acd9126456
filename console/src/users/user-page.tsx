/** One user: details, roles, second factors (reset), sessions, access (revoke / enable), and deletion. */
import { Anchor, Group, Skeleton, Stack } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { useUser } from '../api/queries.ts';
import { PageHeader } from '../common/page-header.tsx';
import { QueryError } from '../common/query-error.tsx';
import { displayName, userLabel } from '../common/format.ts';
import { UserStatusBadge } from './user-status-badge.tsx';
import { UserDetailsCard } from './user-details-card.tsx';
import { UserRolesCard } from './user-roles-card.tsx';
import { UserSessionsCard } from './user-sessions-card.tsx';
import { UserAccessCard } from './user-access-card.tsx';
import { UserMfaCard } from './user-mfa-card.tsx';

export function UserPage() {
  const { t } = useTranslation();
  const { userId = '' } = useParams();
  const user = useUser(userId);

  return (
    <Stack gap="lg">
      <Anchor component={Link} to="/users" size="sm">
        <Group gap={4} component="span">
          <IconArrowLeft size={14} />
          {t('user.back')}
        </Group>
      </Anchor>
      {user.isPending && (
        <Stack>
          <Skeleton height={32} width="40%" />
          <Skeleton height={180} />
          <Skeleton height={120} />
        </Stack>
      )}
      {user.isError && <QueryError error={user.error} onRetry={() => void user.refetch()} />}
      {user.data && (
        <>
          <PageHeader title={userLabel(user.data)} description={displayName(user.data) || undefined} actions={<UserStatusBadge user={user.data} />} />
          <UserDetailsCard user={user.data} />
          <UserRolesCard user={user.data} />
          <UserMfaCard user={user.data} />
          <UserSessionsCard userId={user.data.id} />
          <UserAccessCard user={user.data} />
        </>
      )}
    </Stack>
  );
}
