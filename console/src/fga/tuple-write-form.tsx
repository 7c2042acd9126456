/**
 * Writes one relationship tuple (`_fga_write_tuples`): the server checks it against the current model and
 * refuses it with its reason (an undefined relation, a user type the relation does not allow), shown here.
 */
import { Alert, Button, Paper, Stack, Title } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { IconPlus } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../ui-shared/graphql-client.ts';
import { fgaKeys, writeTuples, type Tuple } from './api.ts';
import { idRules, RelationshipFields } from './relationship-fields.tsx';

export function TupleWriteForm() {
  const { t } = useTranslation('fga');
  const queryClient = useQueryClient();
  const form = useForm<Tuple>({ defaultValues: { user: '', relation: '', object: '' } });
  const write = useMutation({
    mutationFn: (tuple: Tuple) => writeTuples([tuple]),
    onSuccess: () => {
      form.reset();
      void queryClient.invalidateQueries({ queryKey: fgaKeys.tuples() });
    },
  });
  const required = idRules(t);
  const { errors } = form.formState;

  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby="fga-write-tuple">
      <form
        noValidate
        onSubmit={form.handleSubmit((tuple) =>
          write.mutate({ user: tuple.user.trim(), relation: tuple.relation.trim(), object: tuple.object.trim() }),
        )}
      >
        <Stack gap="sm">
          <Title order={3} id="fga-write-tuple">{t('tuples.writeTitle')}</Title>
          <RelationshipFields
            fields={[
              { label: t('fields.user'), placeholder: 'user:anne', description: t('fields.userHint'), error: errors.user?.message, input: form.register('user', required) },
              { label: t('fields.relation'), placeholder: 'viewer', description: t('fields.relationHint'), error: errors.relation?.message, input: form.register('relation', required) },
              { label: t('fields.object'), placeholder: 'document:roadmap', description: t('fields.objectHint'), error: errors.object?.message, input: form.register('object', required) },
            ]}
          />
          {write.isError ? <Alert color="red" role="alert" title={t('tuples.writeFailed')}>{errorMessage(write.error)}</Alert> : null}
          {write.isSuccess ? <Alert color="green" role="status">{write.data}</Alert> : null}
          <div>
            <Button type="submit" leftSection={<IconPlus size={18} />} loading={write.isPending}>
              {t('tuples.write')}
            </Button>
          </div>
        </Stack>
      </form>
    </Paper>
  );
}
