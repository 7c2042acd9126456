/**
 * An organization's domains (`_org_domains`, oldest first): each one's state, the TXT record of its
 * challenge in the opened row, verifying a pending one (the server looks the record up and says why it
 * refuses), and deleting one after a confirmation (a verified domain stops routing sign-ins at once).
 */
import { useState } from 'react';
import { Button, EmptyState, Group, Stack, Table, Text } from '@mantine/core';
import { IconRosetteDiscountCheck, IconTrash, IconWorldWww } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { ConfirmActionIcon } from '../common/confirm.tsx';
import { ExpandableRow } from '../common/expandable-row.tsx';
import { formatTimestamp } from '../common/format.ts';
import { PagedTable } from '../common/paged-table.tsx';
import { useAdminMutation } from '../common/use-admin-mutation.ts';
import { SectionCard } from '../users/section-card.tsx';
import { DomainRecord, DomainRequestForm } from './domain-request-form.tsx';
import { DomainStateBadge } from './domain-state-badge.tsx';
import { deleteOrgDomain, domainKeys, useOrgDomains, verifyOrgDomain, type OrgDomain } from './domains-api.ts';

const PAGE_SIZE = 10;
const COLUMNS = 5;

function DomainRow({ domain }: { domain: OrgDomain }) {
  const { t } = useTranslation('organizations');
  const verify = useAdminMutation({
    mutationFn: () => verifyOrgDomain(domain.org_id, domain.domain),
    invalidates: [domainKeys.list(domain.org_id)],
    successMessage: () => t('domains.verified', { domain: domain.domain }),
  });
  const remove = useAdminMutation({
    mutationFn: () => deleteOrgDomain(domain.org_id, domain.domain),
    invalidates: [domainKeys.list(domain.org_id)],
    successMessage: () => t('domains.deleted', { domain: domain.domain }),
  });
  const verified = domain.state === 'verified';
  return (
    <ExpandableRow
      detailId={`domain-${domain.id}`}
      columns={COLUMNS}
      toggleLabel={(open) => t(open ? 'domains.hideRecordOf' : 'domains.showRecordOf', { domain: domain.domain })}
      cells={
        <>
          <Table.Td>
            <Text size="sm" fw={600}>
              {domain.domain}
            </Text>
          </Table.Td>
          <Table.Td>
            <DomainStateBadge state={domain.state} />
          </Table.Td>
          <Table.Td>
            <Text size="sm">{verified ? formatTimestamp(domain.verified_at) : formatTimestamp(domain.created_at)}</Text>
          </Table.Td>
          <Table.Td>
            <Group gap={4} wrap="nowrap" justify="flex-end">
              {!verified && (
                <Button size="xs" variant="light" leftSection={<IconRosetteDiscountCheck size={14} />} loading={verify.isPending} onClick={() => verify.mutate(undefined)}>
                  {t('domains.verify')}
                </Button>
              )}
              <ConfirmActionIcon
                label={t('domains.delete', { domain: domain.domain })}
                loading={remove.isPending}
                confirmTitle={t('domains.deleteTitle', { domain: domain.domain })}
                confirmBody={t(verified ? 'domains.deleteVerifiedBody' : 'domains.deletePendingBody', { domain: domain.domain })}
                confirmLabel={t('domains.deleteConfirm')}
                onConfirm={() => remove.mutate(undefined)}
              >
                <IconTrash size={16} />
              </ConfirmActionIcon>
            </Group>
          </Table.Td>
        </>
      }
    >
      <DomainRecord challenge={domain} verified={verified} />
    </ExpandableRow>
  );
}

export function OrgDomainsCard({ orgId }: { orgId: string }) {
  const { t } = useTranslation('organizations');
  const [page, setPage] = useState(1);
  const domains = useOrgDomains(orgId, { page, limit: PAGE_SIZE });

  return (
    <SectionCard title={t('domains.title')} description={t('domains.description')}>
      <Stack gap="md">
        <DomainRequestForm orgId={orgId} />
        <div>
          <PagedTable
            query={domains}
            rows={domains.data?.domains}
            columns={[null, t('domains.columns.domain'), t('domains.columns.state'), t('domains.columns.since'), null]}
            renderRow={(domain) => <DomainRow domain={domain} />}
            label={t('domains.caption')}
            pagerLabel={t('domains.pager')}
            onPage={setPage}
            empty={<EmptyState size="sm" icon={<IconWorldWww size={28} />} withIndicatorBackground title={t('domains.empty')} py="lg" />}
            minWidth={640}
            loadingRows={2}
            spanLoadingRows
          />
        </div>
      </Stack>
    </SectionCard>
  );
}
