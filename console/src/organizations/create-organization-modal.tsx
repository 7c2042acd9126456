/**
 * Creating an organization (`_create_organization`, super-admin only): display name, the slug (suggested from
 * the display name until edited, checked as the server checks it) and the enabled switch; on success the
 * console opens the new organization's page.
 */
import { useEffect, useRef } from 'react';
import { useForm } from 'react-hook-form';
import { Modal, Stack, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { DialogButtons } from '../common/form-buttons.tsx';
import { SwitchField } from '../common/switch-field.tsx';
import { useAdminMutation } from '../common/use-admin-mutation.ts';
import { createOrganization, organizationKeys } from './api.ts';
import { MAX_DISPLAY_NAME, MAX_SLUG, isSlug, suggestSlug } from './org-rules.ts';

interface CreateValues {
  displayName: string;
  slug: string;
  enabled: boolean;
}

const EMPTY: CreateValues = { displayName: '', slug: '', enabled: true };

export function CreateOrganizationModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation('organizations');
  const navigate = useNavigate();
  const form = useForm<CreateValues>({ defaultValues: EMPTY });
  const { errors } = form.formState;
  // The slug follows the display name until the admin types a slug of their own.
  const slugTouched = useRef(false);
  useEffect(() => {
    if (!opened) return;
    form.reset(EMPTY);
    slugTouched.current = false;
  }, [opened, form]);
  const create = useAdminMutation({
    mutationFn: (values: CreateValues) =>
      createOrganization({ name: values.slug.trim(), display_name: values.displayName.trim(), enabled: values.enabled }),
    invalidates: [organizationKeys.lists()],
    successMessage: (organization) => t('create.created', { name: organization.display_name }),
    onSuccess: (organization) => {
      onClose();
      void navigate(`/organizations/${encodeURIComponent(organization.id)}`);
    },
  });
  const displayName = form.register('displayName', {
    validate: (value) => {
      if (!value.trim()) return t('fields.displayNameRequired');
      return value.trim().length <= MAX_DISPLAY_NAME || t('fields.tooLong', { max: MAX_DISPLAY_NAME });
    },
  });
  const slug = form.register('slug', {
    validate: (value) => {
      if (!value.trim()) return t('fields.slugRequired');
      return (value.trim().length <= MAX_SLUG && isSlug(value.trim())) || t('fields.slugBad');
    },
  });

  return (
    <Modal opened={opened} onClose={onClose} title={t('create.title')} centered size="lg">
      <form onSubmit={form.handleSubmit((values) => create.mutate(values))} noValidate>
        <Stack gap="md">
          <TextInput
            label={t('fields.displayName')}
            description={t('fields.displayNameHint')}
            required
            data-autofocus
            error={errors.displayName?.message}
            {...displayName}
            onChange={(event) => {
              void displayName.onChange(event);
              if (!slugTouched.current) form.setValue('slug', suggestSlug(event.currentTarget.value));
            }}
          />
          <TextInput
            label={t('fields.slug')}
            description={t('fields.slugHint')}
            required
            spellCheck={false}
            autoCapitalize="none"
            error={errors.slug?.message}
            {...slug}
            onChange={(event) => {
              slugTouched.current = true;
              void slug.onChange(event);
            }}
          />
          <SwitchField control={form.control} name="enabled" label={t('fields.enabled')} description={t('fields.enabledHint')} />
          <DialogButtons onCancel={onClose} submitLabel={t('create.submit')} submitting={create.isPending} />
        </Stack>
      </form>
    </Modal>
  );
}
