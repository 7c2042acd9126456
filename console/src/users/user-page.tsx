/** One user: details, roles, second factors (reset), sessions, access (revoke / enable), and deletion. */
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { useUser } from '../api/queries.ts';
import { PageHeader } from '../common/page-header.tsx';
import { RecordPage } from '../common/record-page.tsx';
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
  const userQuery = useUser(userId);

  return (
    <RecordPage backTo="/users" backLabel={t('user.back')} query={userQuery} loadingHeights={[180, 120]}>
      {(user) => (
        <>
          <PageHeader title={userLabel(user)} description={displayName(user) || undefined} actions={<UserStatusBadge user={user} />} />
          <UserDetailsCard user={user} />
          <UserRolesCard user={user} />
          <UserMfaCard user={user} />
          <UserSessionsCard userId={user.id} />
          <UserAccessCard user={user} />
        </>
      )}
    </RecordPage>
  );
}
