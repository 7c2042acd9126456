/**
 * A client's trusted issuers on its page: the list (paged on the server), add, edit and delete (after a
 * confirmation). Deleting the client deletes them too (the server does it in the same transaction).
 */
import { useState } from 'react';
import { ActionIcon, Badge, Button, Code, Group, Table, Text, Tooltip, VisuallyHidden } from '@mantine/core';
import { IconPencil, IconPlus, IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { confirmDestructive } from '../common/confirm.tsx';
import { QueryError } from '../common/query-error.tsx';
import { TablePager } from '../common/table-pager.tsx';
import { useAdminMutation } from '../common/use-admin-mutation.ts';
import { SectionCard } from '../users/section-card.tsx';
import { deleteTrustedIssuer, issuerKeys, useTrustedIssuers, type TrustedIssuer } from './api.ts';
import { IssuerFormModal } from './issuer-form-modal.tsx';

const PAGE_SIZE = 10;

export function TrustedIssuersCard({ clientId }: { clientId: string }) {
  const { t } = useTranslation('issuers');
  const [page, setPage] = useState(1);
  const [form, setForm] = useState<{ editing?: TrustedIssuer } | undefined>();
  const issuers = useTrustedIssuers(clientId, { page, limit: PAGE_SIZE });
  const remove = useAdminMutation({
    mutationFn: (id: string) => deleteTrustedIssuer(id),
    invalidates: [issuerKeys.ofClient(clientId)],
  });
  const confirmDelete = (issuer: TrustedIssuer) =>
    confirmDestructive({
      title: t('deleteConfirmTitle'),
      body: t('deleteConfirmBody', { issuer: issuer.issuer }),
      confirmLabel: t('deleteConfirm'),
      onConfirm: () => remove.mutate(issuer.id),
    });

  return (
    <SectionCard
      title={t('title')}
      description={t('description')}
      actions={
        <Button variant="light" leftSection={<IconPlus size={16} />} onClick={() => setForm({})}>
          {t('add')}
        </Button>
      }
    >
      {issuers.isError ? (
        <QueryError error={issuers.error} onRetry={() => void issuers.refetch()} />
      ) : issuers.data?.trusted_issuers.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('empty')}
        </Text>
      ) : (
        <Table.ScrollContainer minWidth={640}>
          <Table aria-label={t('caption')} verticalSpacing="sm" aria-busy={issuers.isFetching}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('columns.name')}</Table.Th>
                <Table.Th>{t('columns.issuer')}</Table.Th>
                <Table.Th>{t('columns.jwksUrl')}</Table.Th>
                <Table.Th>{t('columns.status')}</Table.Th>
                <Table.Th>
                  <VisuallyHidden>{t('columns.actions')}</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {issuers.data?.trusted_issuers.map((issuer) => (
                <Table.Tr key={issuer.id} data-testid="issuer-row">
                  <Table.Td>
                    <Text size="sm" fw={600}>
                      {issuer.name}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Code style={{ wordBreak: 'break-all' }}>{issuer.issuer}</Code>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm" style={{ wordBreak: 'break-all' }}>
                      {issuer.jwks_url}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Badge variant="light" color={issuer.is_active ? 'teal' : 'gray'}>
                      {issuer.is_active ? t('status.active') : t('status.inactive')}
                    </Badge>
                  </Table.Td>
                  <Table.Td>
                    <Group gap={4} wrap="nowrap" justify="flex-end">
                      <Tooltip label={t('edit')} withArrow>
                        <ActionIcon variant="subtle" aria-label={t('editLabel', { name: issuer.name })} onClick={() => setForm({ editing: issuer })}>
                          <IconPencil size={16} />
                        </ActionIcon>
                      </Tooltip>
                      <Tooltip label={t('delete')} withArrow>
                        <ActionIcon variant="subtle" color="red" aria-label={t('deleteLabel', { name: issuer.name })} onClick={() => confirmDelete(issuer)}>
                          <IconTrash size={16} />
                        </ActionIcon>
                      </Tooltip>
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <TablePager pagination={issuers.data?.pagination} onPage={setPage} label={t('pager')} />
      <IssuerFormModal opened={form !== undefined} clientId={clientId} editing={form?.editing} onClose={() => setForm(undefined)} />
    </SectionCard>
  );
}
