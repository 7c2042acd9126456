import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { AdminUser } from '../api/types.ts';

/** Whether the user may sign in: revoked by an admin (revoke_access) or active. */
export function UserStatusBadge({ user }: { user: Pick<AdminUser, 'revoked_timestamp'> }) {
  const { t } = useTranslation();
  return user.revoked_timestamp ? (
    <Badge color="red" variant="light">
      {t('users.status.revoked')}
    </Badge>
  ) : (
    <Badge color="teal" variant="light">
      {t('users.status.active')}
    </Badge>
  );
}
