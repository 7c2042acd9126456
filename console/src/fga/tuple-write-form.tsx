/**
 * Writes one relationship tuple (`_fga_write_tuples`): the server checks it against the current model and
 * refuses it with its reason (an undefined relation, a user type the relation does not allow), shown here.
 */
import { Alert, Button, Grid, Paper, Stack, TextInput, Title } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { IconPlus } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../ui-shared/graphql-client.ts';
import { fgaKeys, writeTuples, type Tuple } from './api.ts';

/** The server's own bound on a subject or object (fga.schema.ts: 1 to 512 characters). */
export const MAX_ID_LENGTH = 512;

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
  const required = { required: t('tuples.required'), maxLength: { value: MAX_ID_LENGTH, message: t('tuples.tooLong', { max: MAX_ID_LENGTH }) } };
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
          <Grid gap="sm" align="flex-start">
            <Grid.Col span={{ base: 12, sm: 4 }}>
              <TextInput label={t('fields.user')} placeholder="user:anne" description={t('fields.userHint')} error={errors.user?.message} {...form.register('user', required)} />
            </Grid.Col>
            <Grid.Col span={{ base: 12, sm: 3 }}>
              <TextInput label={t('fields.relation')} placeholder="viewer" description={t('fields.relationHint')} error={errors.relation?.message} {...form.register('relation', required)} />
            </Grid.Col>
            <Grid.Col span={{ base: 12, sm: 5 }}>
              <TextInput label={t('fields.object')} placeholder="document:roadmap" description={t('fields.objectHint')} error={errors.object?.message} {...form.register('object', required)} />
            </Grid.Col>
          </Grid>
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
