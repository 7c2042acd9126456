/**
 * Users: server-side search (`_users` query, a case-insensitive substring of id, email and
 * names) debounced while typing, server-side pagination, the search and page kept in the URL (?q=&page=: a
 * reload, the back button or a shared link shows the same list), a link to each user's page, adding a user
 * (an initial password or a set-password link, no email needed) and email invitations.
 */
import { useState } from 'react';
import { Anchor, Badge, Button, EmptyState, Group, Table, Text } from '@mantine/core';
import { IconMailPlus, IconUserPlus, IconUsers } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useUsers } from '../api/queries.ts';
import type { AdminUser } from '../api/types.ts';
import { ListPage } from '../common/list-page.tsx';
import { PagedTable } from '../common/paged-table.tsx';
import { SearchField } from '../common/search-field.tsx';
import { displayName, formatTimestamp, userLabel } from '../common/format.ts';
import { useSearchInUrl } from '../common/use-list-url.ts';
import { UserStatusBadge } from './user-status-badge.tsx';
import { InviteMembersModal } from './invite-members-modal.tsx';
import { CreateUserModal } from './create-user-modal.tsx';

const PAGE_SIZE = 10;

function UserRow({ user }: { user: AdminUser }) {
  return (
    <Table.Tr>
      <Table.Td>
        <Anchor component={Link} to={`/users/${encodeURIComponent(user.id)}`} fw={600} size="sm">
          {userLabel(user)}
        </Anchor>
        {displayName(user) && (
          <Text size="xs" c="dimmed">
            {displayName(user)}
          </Text>
        )}
      </Table.Td>
      <Table.Td>
        <Group gap={4}>
          {user.roles.map((role) => (
            <Badge key={role} variant="outline" size="sm" tt="none">
              {role}
            </Badge>
          ))}
        </Group>
      </Table.Td>
      <Table.Td>
        <UserStatusBadge user={user} />
      </Table.Td>
      <Table.Td>
        <Text size="sm">{formatTimestamp(user.created_at)}</Text>
      </Table.Td>
    </Table.Tr>
  );
}

export function UsersPage() {
  const { t } = useTranslation();
  const { query, page, search, setSearch, setPage } = useSearchInUrl();
  const [inviting, setInviting] = useState(false);
  const [creating, setCreating] = useState(false);
  const users = useUsers(query, { page, limit: PAGE_SIZE });

  return (
    <ListPage
      title={t('users.title')}
      description={t('users.description')}
      actionLabel={t('users.create.open')}
      actionIcon={<IconUserPlus size={16} />}
      onAction={() => setCreating(true)}
      secondaryAction={
        <Button variant="default" leftSection={<IconMailPlus size={16} />} onClick={() => setInviting(true)}>
          {t('users.invite.open')}
        </Button>
      }
      dialog={
        <>
          <CreateUserModal opened={creating} onClose={() => setCreating(false)} />
          <InviteMembersModal opened={inviting} onClose={() => setInviting(false)} />
        </>
      }
    >
      <SearchField
        label={t('users.search.label')}
        placeholder={t('users.search.placeholder')}
        value={search}
        onChange={setSearch}
        busy={users.isFetching && !users.isPending}
      />
      <PagedTable
        query={users}
        rows={users.data?.users}
        columns={[t('users.columns.user'), t('users.columns.roles'), t('users.columns.status'), t('users.columns.created')]}
        renderRow={(user) => <UserRow user={user} />}
        label={t('users.caption')}
        pagerLabel={t('users.pager')}
        onPage={setPage}
        empty={
          <EmptyState
            size="sm"
            icon={<IconUsers size={28} />}
            withIndicatorBackground
            title={query ? t('users.emptySearch', { query }) : t('users.empty')}
            py="xl"
          >
            {query ? null : (
              <EmptyState.Actions>
                <Button leftSection={<IconUserPlus size={16} />} onClick={() => setCreating(true)} data-testid="empty-add-user">
                  {t('users.create.open')}
                </Button>
              </EmptyState.Actions>
            )}
          </EmptyState>
        }
        minWidth={640}
        loadingRows={5}
        highlightOnHover
      />
    </ListPage>
  );
}
