/**
 * One page of stored tuples, each with a delete action that asks first (`_fga_delete_tuples`; deletes are
 * not held to the current model's type restrictions, so a tuple written under an older model stays removable).
 */
import { useState } from 'react';
import { ActionIcon, Code, Table, Text, Tooltip, VisuallyHidden } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../ui-shared/graphql-client.ts';
import { deleteTuples, fgaKeys, type Tuple } from './api.ts';
import { ConfirmDialog } from './confirm-dialog.tsx';

export function TupleTable({ tuples }: { tuples: Tuple[] }) {
  const { t } = useTranslation('fga');
  const queryClient = useQueryClient();
  const [doomed, setDoomed] = useState<Tuple | undefined>(undefined);
  const remove = useMutation({
    mutationFn: (tuple: Tuple) => deleteTuples([tuple]),
    onSuccess: () => {
      setDoomed(undefined);
      void queryClient.invalidateQueries({ queryKey: fgaKeys.tuples() });
    },
  });
  const close = () => {
    setDoomed(undefined);
    remove.reset();
  };

  return (
    <>
      <Table.ScrollContainer minWidth={520}>
        <Table striped highlightOnHover verticalSpacing="xs" aria-label={t('tuples.tableLabel')}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">{t('fields.user')}</Table.Th>
              <Table.Th scope="col">{t('fields.relation')}</Table.Th>
              <Table.Th scope="col">{t('fields.object')}</Table.Th>
              <Table.Th scope="col" w={56}><VisuallyHidden>{t('tuples.actions')}</VisuallyHidden></Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {tuples.map((tuple) => (
              <Table.Tr key={`${tuple.user}|${tuple.relation}|${tuple.object}`}>
                <Table.Td><Code>{tuple.user}</Code></Table.Td>
                <Table.Td><Text size="sm" fw={500}>{tuple.relation}</Text></Table.Td>
                <Table.Td><Code>{tuple.object}</Code></Table.Td>
                <Table.Td>
                  <Tooltip label={t('tuples.delete')}>
                    <ActionIcon
                      variant="subtle"
                      color="red"
                      aria-label={t('tuples.deleteOne', { user: tuple.user, relation: tuple.relation, object: tuple.object })}
                      onClick={() => setDoomed(tuple)}
                    >
                      <IconTrash size={18} />
                    </ActionIcon>
                  </Tooltip>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <ConfirmDialog
        opened={doomed !== undefined}
        title={t('tuples.confirmTitle')}
        confirmLabel={t('tuples.delete')}
        pending={remove.isPending}
        error={remove.isError ? errorMessage(remove.error) : undefined}
        onConfirm={() => doomed && remove.mutate(doomed)}
        onClose={close}
      >
        <Text size="sm">{t('tuples.confirmBody')}</Text>
        {doomed ? <Code block>{`${doomed.user} ${doomed.relation} ${doomed.object}`}</Code> : null}
      </ConfirmDialog>
    </>
  );
}
