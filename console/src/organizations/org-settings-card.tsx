/**
 * An organization's settings (`_update_organization`): display name and slug, sent only when changed, and the
 * enabled switch (only the super-admin, which the console is, may enable or disable an organization).
 */
import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { Code, Stack, Switch, TextInput } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { DetailRow, DetailTable } from '../common/detail-table.tsx';
import { FormButtons } from '../common/form-buttons.tsx';
import { formatTimestamp } from '../common/format.ts';
import { useAdminMutation } from '../common/use-admin-mutation.ts';
import { SectionCard } from '../users/section-card.tsx';
import { organizationKeys, updateOrganization, type Organization, type OrganizationFields } from './api.ts';
import { MAX_DISPLAY_NAME, MAX_SLUG, isSlug } from './org-rules.ts';

interface SettingsValues {
  displayName: string;
  slug: string;
}

function values(organization: Organization): SettingsValues {
  return { displayName: organization.display_name, slug: organization.name };
}

function changes(saved: Organization, next: SettingsValues): Partial<OrganizationFields> {
  const changed: Partial<OrganizationFields> = {};
  if (next.displayName.trim() !== saved.display_name) changed.display_name = next.displayName.trim();
  if (next.slug.trim() !== saved.name) changed.name = next.slug.trim();
  return changed;
}

function EnabledSwitch({ organization }: { organization: Organization }) {
  const { t } = useTranslation('organizations');
  const queryClient = useQueryClient();
  const toggle = useAdminMutation({
    mutationFn: (enabled: boolean) => updateOrganization(organization.id, { enabled }),
    invalidates: [organizationKeys.lists()],
    successMessage: (saved) => (saved.enabled ? t('settings.enabledNow') : t('settings.disabledNow')),
    onSuccess: (saved) => queryClient.setQueryData(organizationKeys.one(organization.id), saved),
  });
  // While the change is on its way the switch shows where it is going, not where it was.
  const checked = toggle.isPending ? Boolean(toggle.variables) : organization.enabled;
  return (
    <Switch
      checked={checked}
      disabled={toggle.isPending}
      onChange={(event) => toggle.mutate(event.currentTarget.checked)}
      label={t('settings.enabledLabel')}
      description={t('fields.enabledHint')}
    />
  );
}

export function OrgSettingsCard({ organization }: { organization: Organization }) {
  const { t } = useTranslation('organizations');
  const queryClient = useQueryClient();
  const form = useForm<SettingsValues>({ defaultValues: values(organization) });
  const { errors } = form.formState;
  const save = useAdminMutation({
    mutationFn: (next: SettingsValues) => updateOrganization(organization.id, changes(organization, next)),
    invalidates: [organizationKeys.lists()],
    successMessage: () => t('settings.saved'),
    onSuccess: (saved) => queryClient.setQueryData(organizationKeys.one(organization.id), saved),
  });
  // A new server answer becomes the form's baseline; fields being edited keep what the admin typed.
  useEffect(() => {
    form.reset(values(organization), { keepDirtyValues: true });
  }, [organization, form]);

  return (
    <SectionCard title={t('settings.title')}>
      <form onSubmit={form.handleSubmit((next) => save.mutate(next))} noValidate>
        <Stack>
          <TextInput
            label={t('fields.displayName')}
            description={t('fields.displayNameHint')}
            required
            error={errors.displayName?.message}
            {...form.register('displayName', {
              validate: (value) => {
                if (!value.trim()) return t('fields.displayNameRequired');
                return value.trim().length <= MAX_DISPLAY_NAME || t('fields.tooLong', { max: MAX_DISPLAY_NAME });
              },
            })}
          />
          <TextInput
            label={t('fields.slug')}
            description={`${t('fields.slugHint')} ${t('settings.slugMoves')}`}
            required
            spellCheck={false}
            autoCapitalize="none"
            error={errors.slug?.message}
            {...form.register('slug', {
              validate: (value) => {
                if (!value.trim()) return t('fields.slugRequired');
                return (value.trim().length <= MAX_SLUG && isSlug(value.trim())) || t('fields.slugBad');
              },
            })}
          />
          <EnabledSwitch organization={organization} />
          <DetailTable>
            <DetailRow label={t('settings.id')}>
              <Code>{organization.id}</Code>
            </DetailRow>
            <DetailRow label={t('settings.created')}>{formatTimestamp(organization.created_at)}</DetailRow>
            <DetailRow label={t('settings.updated')}>{formatTimestamp(organization.updated_at)}</DetailRow>
          </DetailTable>
          <FormButtons
            dirty={form.formState.isDirty}
            saving={save.isPending}
            saveLabel={t('settings.save')}
            onReset={() => form.reset(values(organization))}
          />
        </Stack>
      </form>
    </SectionCard>
  );
}
