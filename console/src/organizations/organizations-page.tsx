/**
 * Organizations (`_organizations`, super-admin only): a server-side search of name and display name
 * debounced while typing, server-side pages, the search and page kept in the URL (?q=&page=), a link to
 * each organization's page, and creating one.
 */
import { useEffect, useRef, useState } from 'react';
import { Anchor, Button, Code, EmptyState, Paper, Stack, Table, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconBuilding, IconPlus, IconSearch } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { PageHeader } from '../common/page-header.tsx';
import { PagedTable } from '../common/paged-table.tsx';
import { formatTimestamp } from '../common/format.ts';
import { useOrganizations, type Organization } from './api.ts';
import { CreateOrganizationModal } from './create-organization-modal.tsx';
import { OrgStatusBadge } from './org-status-badge.tsx';

const PAGE_SIZE = 10;
const SEARCH_DEBOUNCE_MS = 300;

function OrganizationRow({ organization }: { organization: Organization }) {
  return (
    <Table.Tr>
      <Table.Td>
        <Anchor component={Link} to={`/organizations/${encodeURIComponent(organization.id)}`} fw={600} size="sm">
          {organization.display_name}
        </Anchor>
      </Table.Td>
      <Table.Td>
        <Code>{organization.name}</Code>
      </Table.Td>
      <Table.Td>
        <OrgStatusBadge organization={organization} />
      </Table.Td>
      <Table.Td>
        <Text size="sm">{formatTimestamp(organization.created_at)}</Text>
      </Table.Td>
    </Table.Tr>
  );
}

export function OrganizationsPage() {
  const { t } = useTranslation('organizations');
  const [params, setParams] = useSearchParams();
  const query = params.get('q') ?? '';
  const page = Math.max(1, Number(params.get('page')) || 1);
  const [search, setSearch] = useState(query);
  const [debounced] = useDebouncedValue(search.trim(), SEARCH_DEBOUNCE_MS);
  const [creating, setCreating] = useState(false);
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
  const organizations = useOrganizations(query, { page, limit: PAGE_SIZE });

  return (
    <Stack gap={0}>
      <PageHeader
        title={t('title')}
        description={t('description')}
        actions={
          <Button leftSection={<IconPlus size={16} />} onClick={() => setCreating(true)}>
            {t('create.open')}
          </Button>
        }
      />
      <Paper withBorder radius="md" p="md">
        <TextInput
          label={t('search.label')}
          placeholder={t('search.placeholder')}
          leftSection={<IconSearch size={16} />}
          value={search}
          onChange={(event) => setSearch(event.currentTarget.value)}
          type="search"
          mb="md"
          rightSection={organizations.isFetching && !organizations.isPending ? <Text size="xs" c="dimmed">…</Text> : null}
        />
        <PagedTable
          query={organizations}
          rows={organizations.data?.organizations}
          columns={[t('columns.name'), t('columns.slug'), t('columns.status'), t('columns.created')]}
          renderRow={(organization) => <OrganizationRow organization={organization} />}
          label={t('caption')}
          pagerLabel={t('pager')}
          onPage={setPage}
          empty={
            <EmptyState
              size="sm"
              icon={<IconBuilding size={28} />}
              withIndicatorBackground
              title={query ? t('emptySearch', { query }) : t('empty')}
              py="xl"
            />
          }
          minWidth={640}
          loadingRows={3}
          highlightOnHover
        />
      </Paper>
      <CreateOrganizationModal opened={creating} onClose={() => setCreating(false)} />
    </Stack>
  );
}
