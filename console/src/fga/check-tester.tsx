/**
 * The check tester: may this user hold this relation on this object? Asked with check_permissions and an
 * explicit `user` (docs/operations.md; the explicit subject is honoured for super-admins), with
 * optional contextual tuples that count for this one check and are never stored (docs/api-overview.md#resources-and-fields).
 */
import { ActionIcon, Alert, Button, Grid, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useFieldArray, useForm } from 'react-hook-form';
import { IconCircleCheck, IconCircleX, IconPlus, IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../ui-shared/graphql-client.ts';
import { checkPermission, type CheckQuestion, type Tuple } from './api.ts';
import { idRules, RelationshipFields } from './relationship-fields.tsx';

/** The server's bound on contextual tuples per check (fga.schema.ts, OpenFGA's own). */
const MAX_CONTEXTUAL_TUPLES = 100;

interface CheckForm {
  user: string;
  relation: string;
  object: string;
  contextualTuples: Tuple[];
}

const trimmed = (tuple: Tuple): Tuple => ({ user: tuple.user.trim(), relation: tuple.relation.trim(), object: tuple.object.trim() });

export function CheckTester() {
  const { t } = useTranslation('fga');
  const form = useForm<CheckForm>({ defaultValues: { user: '', relation: '', object: '', contextualTuples: [] } });
  const contextual = useFieldArray({ control: form.control, name: 'contextualTuples' });
  const check = useMutation({
    mutationFn: async (question: CheckQuestion) => ({ question, allowed: await checkPermission(question) }),
  });
  const required = idRules(t);
  const { errors } = form.formState;

  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby="fga-check">
      <form
        noValidate
        onSubmit={form.handleSubmit((values) =>
          check.mutate({ ...trimmed(values), contextualTuples: values.contextualTuples.map(trimmed) }),
        )}
      >
        <Stack gap="sm">
          <Title order={3} id="fga-check">{t('tester.checkTitle')}</Title>
          <Text size="sm" c="dimmed">{t('tester.checkIntro')}</Text>
          <RelationshipFields
            fields={[
              { label: t('fields.user'), placeholder: 'user:anne', error: errors.user?.message, input: form.register('user', required) },
              { label: t('fields.relation'), placeholder: 'viewer', error: errors.relation?.message, input: form.register('relation', required) },
              { label: t('fields.object'), placeholder: 'document:roadmap', error: errors.object?.message, input: form.register('object', required) },
            ]}
          />

          <Stack gap={6} component="fieldset" style={{ border: 0, padding: 0, margin: 0 }}>
            <Text component="legend" size="sm" fw={600}>{t('tester.contextualTitle')}</Text>
            <Text size="xs" c="dimmed">{t('tester.contextualHint')}</Text>
            {contextual.fields.map((field, index) => (
              <Grid key={field.id} gap="xs" align="flex-end">
                <Grid.Col span={{ base: 12, sm: 4 }}>
                  <TextInput
                    label={t('fields.user')}
                    aria-label={t('tester.contextualUser', { n: index + 1 })}
                    error={errors.contextualTuples?.[index]?.user?.message}
                    {...form.register(`contextualTuples.${index}.user`, required)}
                  />
                </Grid.Col>
                <Grid.Col span={{ base: 12, sm: 3 }}>
                  <TextInput
                    label={t('fields.relation')}
                    aria-label={t('tester.contextualRelation', { n: index + 1 })}
                    error={errors.contextualTuples?.[index]?.relation?.message}
                    {...form.register(`contextualTuples.${index}.relation`, required)}
                  />
                </Grid.Col>
                <Grid.Col span={{ base: 10, sm: 4 }}>
                  <TextInput
                    label={t('fields.object')}
                    aria-label={t('tester.contextualObject', { n: index + 1 })}
                    error={errors.contextualTuples?.[index]?.object?.message}
                    {...form.register(`contextualTuples.${index}.object`, required)}
                  />
                </Grid.Col>
                <Grid.Col span={{ base: 2, sm: 1 }}>
                  <ActionIcon variant="subtle" color="gray" size="lg" mb={2} aria-label={t('tester.removeContextual', { n: index + 1 })} onClick={() => contextual.remove(index)}>
                    <IconTrash size={18} />
                  </ActionIcon>
                </Grid.Col>
              </Grid>
            ))}
            <div>
              <Button
                variant="subtle"
                size="xs"
                leftSection={<IconPlus size={16} />}
                disabled={contextual.fields.length >= MAX_CONTEXTUAL_TUPLES}
                onClick={() => contextual.append({ user: '', relation: '', object: '' })}
              >
                {t('tester.addContextual')}
              </Button>
            </div>
          </Stack>

          {check.isError ? <Alert color="red" role="alert" title={t('tester.failed')}>{errorMessage(check.error)}</Alert> : null}
          {check.isSuccess ? <CheckAnswer question={check.data.question} allowed={check.data.allowed} /> : null}
          <div>
            <Button type="submit" loading={check.isPending}>{t('tester.runCheck')}</Button>
          </div>
        </Stack>
      </form>
    </Paper>
  );
}

function CheckAnswer({ question, allowed }: { question: CheckQuestion; allowed: boolean }) {
  const { t } = useTranslation('fga');
  const words = { user: question.user, relation: question.relation, object: question.object };
  return (
    <Alert
      role="status"
      data-testid="check-answer"
      color={allowed ? 'green' : 'red'}
      variant="light"
      icon={allowed ? <IconCircleCheck /> : <IconCircleX />}
      title={allowed ? t('tester.allowed') : t('tester.denied')}
    >
      {allowed ? t('tester.allowedBody', words) : t('tester.deniedBody', words)}
      {question.contextualTuples.length > 0 ? ` ${t('tester.withContextual', { count: question.contextualTuples.length })}` : ''}
    </Alert>
  );
}
