/**
 * List objects: every object of a type on which a user holds a relation. Asked with list_permissions
 * narrowed to that relation and type, with an explicit `user` (docs/operations.md, honoured for
 * super-admins); the server caps the answer at 1,000 entries and says when it did.
 */
import { Alert, Badge, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../ui-shared/graphql-client.ts';
import { listObjects } from './api.ts';
import { idRules, RelationshipFields } from './relationship-fields.tsx';

interface ListForm {
  user: string;
  relation: string;
  type: string;
}

export function ListObjectsTester() {
  const { t } = useTranslation('fga');
  const form = useForm<ListForm>({ defaultValues: { user: '', relation: '', type: '' } });
  const list = useMutation({
    mutationFn: async (question: ListForm) => ({ question, answer: await listObjects(question.user, question.relation, question.type) }),
  });
  const required = idRules(t);
  const { errors } = form.formState;

  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby="fga-list-objects">
      <form
        noValidate
        onSubmit={form.handleSubmit((values) => list.mutate({ user: values.user.trim(), relation: values.relation.trim(), type: values.type.trim() }))}
      >
        <Stack gap="sm">
          <Title order={3} id="fga-list-objects">{t('tester.listTitle')}</Title>
          <Text size="sm" c="dimmed">{t('tester.listIntro')}</Text>
          <RelationshipFields
            fields={[
              { label: t('fields.user'), placeholder: 'user:anne', error: errors.user?.message, input: form.register('user', required) },
              { label: t('fields.relation'), placeholder: 'viewer', error: errors.relation?.message, input: form.register('relation', required) },
              { label: t('fields.type'), placeholder: 'document', error: errors.type?.message, input: form.register('type', required) },
            ]}
          />
          {list.isError ? <Alert color="red" role="alert" title={t('tester.failed')}>{errorMessage(list.error)}</Alert> : null}
          {list.isSuccess ? (
            <Stack gap={6} role="status" data-testid="list-answer">
              <Text size="sm" fw={600}>
                {t('tester.listAnswer', { count: list.data.answer.objects.length, ...list.data.question })}
              </Text>
              {list.data.answer.objects.length > 0 ? (
                <Group gap={6}>
                  {list.data.answer.objects.map((object) => (
                    <Badge key={object} variant="light" tt="none" size="lg" radius="sm">{object}</Badge>
                  ))}
                </Group>
              ) : null}
              {list.data.answer.truncated ? <Alert color="yellow" variant="light">{t('tester.truncated')}</Alert> : null}
            </Stack>
          ) : null}
          <div>
            <Button type="submit" loading={list.isPending}>{t('tester.runList')}</Button>
          </div>
        </Stack>
      </form>
    </Paper>
  );
}
