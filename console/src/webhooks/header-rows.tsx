/**
 * A webhook's extra headers as editable name/value rows (react-hook-form useFieldArray): each row checked
 * with the server's rules (webhook-rules.ts), a name listed once, at most MAX_HEADERS rows.
 */
import { useFieldArray, type UseFormReturn } from 'react-hook-form';
import { ActionIcon, Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { MAX_HEADERS, headerNameProblem, isHeaderValue } from './webhook-rules.ts';
import type { WebhookFormValues } from './webhook-form-values.ts';

export function HeaderRows({ form }: { form: UseFormReturn<WebhookFormValues> }) {
  const { t } = useTranslation('webhooks');
  const { fields, append, remove } = useFieldArray({ control: form.control, name: 'headers' });
  const errors = form.formState.errors.headers;

  return (
    <Stack gap="xs">
      <div>
        <Text size="sm" fw={500}>
          {t('fields.headers')}
        </Text>
        <Text size="xs" c="dimmed">
          {t('fields.headersHint')}
        </Text>
      </div>
      {fields.length === 0 && (
        <Text size="sm" c="dimmed">
          {t('fields.noHeaders')}
        </Text>
      )}
      {fields.map((field, index) => (
        <Group key={field.id} align="flex-start" gap="xs" wrap="nowrap">
          <TextInput
            aria-label={t('fields.headerName')}
            placeholder="Authorization"
            style={{ flex: 2 }}
            autoComplete="off"
            spellCheck={false}
            error={errors?.[index]?.name?.message}
            {...form.register(`headers.${index}.name`, {
              validate: (name, values) => {
                const trimmed = name.trim();
                const problem = headerNameProblem(trimmed);
                if (problem) return t(`fields.${problem}`);
                const first = values.headers.findIndex((h) => h.name.trim().toLowerCase() === trimmed.toLowerCase());
                return first === index || t('fields.headerNameDuplicate');
              },
            })}
          />
          <TextInput
            aria-label={t('fields.headerValue')}
            placeholder="Bearer …"
            style={{ flex: 3 }}
            autoComplete="off"
            spellCheck={false}
            error={errors?.[index]?.value?.message}
            {...form.register(`headers.${index}.value`, { validate: (value) => isHeaderValue(value) || t('fields.headerValueBad') })}
          />
          <ActionIcon
            variant="subtle"
            color="red"
            size="lg"
            mt={2}
            aria-label={t('fields.removeHeader', { name: form.getValues(`headers.${index}.name`) || index + 1 })}
            onClick={() => remove(index)}
          >
            <IconTrash size={16} />
          </ActionIcon>
        </Group>
      ))}
      <Group>
        <Button
          variant="light"
          size="xs"
          leftSection={<IconPlus size={14} />}
          disabled={fields.length >= MAX_HEADERS}
          onClick={() => append({ name: '', value: '' })}
        >
          {t('fields.addHeader')}
        </Button>
        {fields.length >= MAX_HEADERS && (
          <Text size="xs" c="dimmed">
            {t('fields.tooManyHeaders', { max: MAX_HEADERS })}
          </Text>
        )}
      </Group>
    </Stack>
  );
}
