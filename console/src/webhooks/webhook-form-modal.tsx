/**
 * Adding a webhook (`_add_webhook`) or editing one (`_update_webhook`, every field sent): the event (one of
 * the thirteen of docs/events.md), description, endpoint, enabled switch and extra headers.
 */
import { useEffect } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { Modal, Select, Stack, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { DialogButtons } from '../common/form-buttons.tsx';
import { SwitchField } from '../common/switch-field.tsx';
import { useAdminMutation } from '../common/use-admin-mutation.ts';
import { WEBHOOK_EVENTS, addWebhook, updateWebhook, webhookKeys, type Webhook } from './api.ts';
import { HeaderRows } from './header-rows.tsx';
import { MAX_DESCRIPTION, MAX_ENDPOINT, isEndpoint } from './webhook-rules.ts';
import { webhookFields, webhookFormValues, type WebhookFormValues } from './webhook-form-values.ts';

/** `editing` undefined: add a new webhook. */
export function WebhookFormModal({ opened, editing, onClose }: { opened: boolean; editing?: Webhook; onClose: () => void }) {
  const { t } = useTranslation('webhooks');
  const form = useForm<WebhookFormValues>({ defaultValues: webhookFormValues(editing) });
  const { errors } = form.formState;
  useEffect(() => {
    if (opened) form.reset(webhookFormValues(editing));
  }, [opened, editing, form]);
  const save = useAdminMutation({
    mutationFn: (values: WebhookFormValues) => (editing ? updateWebhook(editing.id, webhookFields(values)) : addWebhook(webhookFields(values))),
    invalidates: [webhookKeys.all],
    successMessage: () => (editing ? t('saved') : t('added')),
    onSuccess: onClose,
  });

  return (
    <Modal opened={opened} onClose={onClose} title={editing ? t('editTitle') : t('addTitle')} centered size="lg">
      <form onSubmit={form.handleSubmit((values) => save.mutate(values))} noValidate>
        <Stack gap="md">
          <Controller
            control={form.control}
            name="eventName"
            rules={{ validate: (name) => (WEBHOOK_EVENTS as readonly string[]).includes(name) || t('fields.eventRequired') }}
            render={({ field, fieldState }) => (
              <Select
                label={t('fields.event')}
                description={t('fields.eventHint')}
                required
                data-autofocus
                data={[...WEBHOOK_EVENTS]}
                value={field.value || null}
                onChange={(value) => field.onChange(value ?? '')}
                onBlur={field.onBlur}
                ref={field.ref}
                searchable
                allowDeselect={false}
                comboboxProps={{ withinPortal: true }}
                error={fieldState.error?.message}
              />
            )}
          />
          <TextInput
            label={t('fields.endpoint')}
            description={t('fields.endpointHint')}
            required
            type="url"
            placeholder="https://hooks.example.com/portcullis"
            spellCheck={false}
            error={errors.endpoint?.message}
            {...form.register('endpoint', {
              validate: (value) => {
                if (!value.trim()) return t('fields.endpointRequired');
                if (value.trim().length > MAX_ENDPOINT) return t('fields.tooLong', { max: MAX_ENDPOINT });
                return isEndpoint(value) || t('fields.notUrl');
              },
            })}
          />
          <TextInput
            label={t('fields.description')}
            description={t('fields.descriptionHint')}
            error={errors.description?.message}
            {...form.register('description', {
              validate: (value) => value.trim().length <= MAX_DESCRIPTION || t('fields.tooLong', { max: MAX_DESCRIPTION }),
            })}
          />
          <SwitchField control={form.control} name="enabled" label={t('fields.enabled')} description={t('fields.enabledHint')} />
          <HeaderRows form={form} />
          <DialogButtons onCancel={onClose} submitLabel={editing ? t('save') : t('add')} submitting={save.isPending} />
        </Stack>
      </form>
    </Modal>
  );
}
