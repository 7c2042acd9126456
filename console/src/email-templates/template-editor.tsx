/**
 * The subject and HTML of an event's template (react-hook-form), with save, discard and "Restore the
 * built-in one". The server checks the template again when saving (template-check.ts) and refuses one that
 * does not render: its message is the failure notification (common/notify.ts), which stays until dismissed.
 */
import type { UseFormReturn } from 'react-hook-form';
import { Button, Code, Group, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { IconDeviceFloppy, IconRestore } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { ConfirmButton } from '../common/confirm.tsx';
import { useAdminMutation } from '../common/use-admin-mutation.ts';
import { SectionCard } from '../users/section-card.tsx';
import { addEmailTemplate, deleteEmailTemplate, templateKeys, updateEmailTemplate, type EmailEvent, type EmailTemplate } from './api.ts';

export interface TemplateFormValues {
  subject: string;
  template: string;
}

/** server/modules/email-templates/email-templates.schema.ts: RFC 5322 line length and the TEXT column. */
const MAX_SUBJECT = 998;
const MAX_TEMPLATE = 60_000;

const PLACEHOLDERS = ['user.name', 'user.email', 'user.given_name', 'user.family_name', 'organization.name', 'organization.logo'];

export function TemplateEditor({ event, form, stored }: { event: EmailEvent; form: UseFormReturn<TemplateFormValues>; stored?: EmailTemplate }) {
  const { t } = useTranslation('emailTemplates');
  const { errors, isDirty } = form.formState;
  const save = useAdminMutation({
    mutationFn: (values: TemplateFormValues) =>
      stored ? updateEmailTemplate(stored.id, values) : addEmailTemplate({ event_name: event, ...values }),
    invalidates: [templateKeys.list()],
    successMessage: () => t('editor.saved'),
  });
  const restore = useAdminMutation({
    mutationFn: (id: string) => deleteEmailTemplate(id),
    invalidates: [templateKeys.list()],
    successMessage: () => t('editor.restored'),
  });
  const delivers = event === 'verify_otp' ? 'otp' : 'verification_url';

  return (
    <SectionCard title={t('editor.title')} description={stored ? t('editor.customNote') : t('editor.builtInNote')}>
      <form onSubmit={form.handleSubmit((values) => save.mutate(values))} noValidate>
        <Stack gap="md">
          <TextInput
            label={t('editor.subject')}
            description={t('editor.subjectHint')}
            required
            spellCheck={false}
            error={errors.subject?.message}
            {...form.register('subject', {
              validate: (value) => {
                if (!value.trim()) return t('editor.subjectRequired');
                if (/[\r\n]/.test(value)) return t('editor.subjectHint');
                return value.length <= MAX_SUBJECT || t('editor.tooLong', { max: MAX_SUBJECT });
              },
            })}
          />
          <Textarea
            label={t('editor.html')}
            description={t('editor.htmlHint')}
            required
            autosize
            minRows={14}
            maxRows={28}
            spellCheck={false}
            autoComplete="off"
            styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)', fontSize: 13 } }}
            error={errors.template?.message}
            {...form.register('template', {
              validate: (value) => {
                if (!value.trim()) return t('editor.htmlRequired');
                return value.length <= MAX_TEMPLATE || t('editor.tooLong', { max: MAX_TEMPLATE });
              },
            })}
          />
          <Group gap={6}>
            <Text size="xs" c="dimmed">
              {t('editor.placeholders')}
            </Text>
            {[...PLACEHOLDERS, delivers].map((name) => (
              <Code key={name} fz="xs">{`{{${name}}}`}</Code>
            ))}
          </Group>
          <Group justify="space-between" wrap="wrap" gap="sm">
            <Group gap="sm">
              <Button type="submit" leftSection={<IconDeviceFloppy size={16} />} loading={save.isPending}>
                {t('editor.save')}
              </Button>
              <Button variant="default" disabled={!isDirty} onClick={() => form.reset()}>
                {t('editor.discard')}
              </Button>
            </Group>
            {stored && (
              <ConfirmButton
                variant="light"
                color="red"
                leftSection={<IconRestore size={16} />}
                loading={restore.isPending}
                confirmTitle={t('editor.restoreConfirmTitle')}
                confirmBody={t('editor.restoreConfirmBody', { event })}
                confirmLabel={t('editor.restoreConfirm')}
                onConfirm={() => restore.mutate(stored.id)}
              >
                {t('editor.restore')}
              </ConfirmButton>
            )}
          </Group>
        </Stack>
      </form>
    </SectionCard>
  );
}
