/**
 * Users: server-side search (`_users` query, a case-insensitive substring of id, email and
 * names) debounced while typing, server-side pagination, a link to each user's page, and invitations.
 */
import { useEffect, useRef, useState } from 'react';
import { Anchor, Badge, Button, EmptyState, Group, Paper, Stack, Table, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconMailPlus, IconSearch, IconUsers } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { useUsers } from '../api/queries.ts';
import type { AdminUser } from '../api/types.ts';
import { PageHeader } from '../common/page-header.tsx';
import { PagedTable } from '../common/paged-table.tsx';
import { displayName, formatTimestamp, userLabel } from '../common/format.ts';
import { UserStatusBadge } from './user-status-badge.tsx';
import { InviteMembersModal } from './invite-members-modal.tsx';

const PAGE_SIZE = 10;
const SEARCH_DEBOUNCE_MS = 300;

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
  // The search and the page live in the URL (?q=&page=): a reload, the back button or a shared link shows the same list.
  const [params, setParams] = useSearchParams();
  const query = params.get('q') ?? '';
  const page = Math.max(1, Number(params.get('page')) || 1);
  const [search, setSearch] = useState(query);
  const [debounced] = useDebouncedValue(search.trim(), SEARCH_DEBOUNCE_MS);
  const [inviting, setInviting] = useState(false);
  // The last search this page wrote to the URL: a change of `q` from elsewhere (back button) refills the box.
  const written = useRef(query);
  useEffect(() => {
    if (debounced === written.current) return;
    written.current = debounced;
    // A new search starts from its first page.
    if (debounced !== query) setParams(debounced ? { q: debounced } : {});
  }, [debounced, query, setParams]);
  useEffect(() => {
    if (query === written.current) return;
    written.current = query;
    setSearch(query);
  }, [query]);
  const setPage = (next: number) => setParams({ ...(query ? { q: query } : {}), page: String(next) });
  const users = useUsers(query, { page, limit: PAGE_SIZE });

  return (
    <Stack gap={0}>
      <PageHeader
        title={t('users.title')}
        description={t('users.description')}
        actions={
          <Button leftSection={<IconMailPlus size={16} />} onClick={() => setInviting(true)}>
            {t('users.invite.open')}
          </Button>
        }
      />
      <Paper withBorder radius="md" p="md">
        <TextInput
          label={t('users.search.label')}
          placeholder={t('users.search.placeholder')}
          leftSection={<IconSearch size={16} />}
          value={search}
          onChange={(event) => setSearch(event.currentTarget.value)}
          type="search"
          mb="md"
          rightSection={users.isFetching && !users.isPending ? <Text size="xs" c="dimmed">…</Text> : null}
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
            />
          }
          minWidth={640}
          loadingRows={5}
          highlightOnHover
        />
      </Paper>
      <InviteMembersModal opened={inviting} onClose={() => setInviting(false)} />
    </Stack>
  );
}
