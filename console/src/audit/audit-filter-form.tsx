/**
 * The audit log's filter form (react-hook-form): applied to the URL on submit, so the table below reads
 * only what was applied and typing does not query the server on every keystroke.
 */
import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { Button, Group, SimpleGrid, TextInput } from '@mantine/core';
import { IconFilter, IconX } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { secondsOf, type FilterValues } from './audit-filters.ts';

const EMPTY: FilterValues = { actor: '', action: '', resourceType: '', resourceId: '', from: '', to: '' };

export function AuditFilterForm({ applied, onApply }: { applied: FilterValues; onApply: (values: FilterValues) => void }) {
  const { t } = useTranslation('audit');
  const form = useForm<FilterValues>({ defaultValues: applied });
  const { errors } = form.formState;
  // Back and forward in the browser change the applied filters: the form follows.
  useEffect(() => form.reset(applied), [applied, form]);

  return (
    <form onSubmit={form.handleSubmit(onApply)} noValidate aria-label={t('filters.title')}>
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="sm" verticalSpacing="xs">
        <TextInput label={t('filters.action')} placeholder={t('filters.actionPlaceholder')} spellCheck={false} {...form.register('action')} />
        <TextInput label={t('filters.actor')} placeholder={t('filters.actorPlaceholder')} spellCheck={false} {...form.register('actor')} />
        <TextInput label={t('filters.resourceType')} placeholder={t('filters.resourceTypePlaceholder')} spellCheck={false} {...form.register('resourceType')} />
        <TextInput label={t('filters.resourceId')} spellCheck={false} {...form.register('resourceId')} />
        <TextInput label={t('filters.from')} type="datetime-local" step={1} {...form.register('from')} />
        <TextInput
          label={t('filters.to')}
          type="datetime-local"
          step={1}
          description={t('filters.toHint')}
          inputWrapperOrder={['label', 'input', 'description', 'error']}
          error={errors.to?.message}
          {...form.register('to', {
            validate: (to, values) => {
              const from = secondsOf(values.from, false);
              const until = secondsOf(to, true);
              return from === undefined || until === undefined || from <= until || t('filters.fromAfterTo');
            },
          })}
        />
      </SimpleGrid>
      <Group mt="sm" gap="sm">
        <Button type="submit" leftSection={<IconFilter size={16} />}>
          {t('filters.apply')}
        </Button>
        <Button
          variant="default"
          leftSection={<IconX size={16} />}
          onClick={() => {
            form.reset(EMPTY);
            onApply(EMPTY);
          }}
        >
          {t('filters.clear')}
        </Button>
      </Group>
    </form>
  );
}
