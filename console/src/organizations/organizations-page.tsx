/**
 * Organizations (`_organizations`, super-admin only): a server-side search of name and display name
 * debounced while typing, server-side pages, the search and page kept in the URL (?q=&page=), a link to
 * each organization's page, and creating one.
 */
import { useState } from 'react';
import { Anchor, Code, EmptyState, Table, Text } from '@mantine/core';
import { IconBuilding, IconPlus } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ListPage } from '../common/list-page.tsx';
import { PagedTable } from '../common/paged-table.tsx';
import { SearchField } from '../common/search-field.tsx';
import { formatTimestamp } from '../common/format.ts';
import { useSearchInUrl } from '../common/use-list-url.ts';
import { useOrganizations, type Organization } from './api.ts';
import { CreateOrganizationModal } from './create-organization-modal.tsx';
import { OrgStatusBadge } from './org-status-badge.tsx';

const PAGE_SIZE = 10;

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
  const { query, page, search, setSearch, setPage } = useSearchInUrl();
  const [creating, setCreating] = useState(false);
  const organizations = useOrganizations(query, { page, limit: PAGE_SIZE });

  return (
    <ListPage
      title={t('title')}
      description={t('description')}
      actionLabel={t('create.open')}
      actionIcon={<IconPlus size={16} />}
      onAction={() => setCreating(true)}
      dialog={<CreateOrganizationModal opened={creating} onClose={() => setCreating(false)} />}
    >
      <SearchField
        label={t('search.label')}
        placeholder={t('search.placeholder')}
        value={search}
        onChange={setSearch}
        busy={organizations.isFetching && !organizations.isPending}
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
    </ListPage>
  );
}
