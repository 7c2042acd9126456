/** Edit a user's roles (`_update_user` with roles); the choices are the instance's roles (`_admin_meta`). */
import { useEffect } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { Button, Group, MultiSelect, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { updateUserRoles } from '../api/mutations.ts';
import { queryKeys, useAdminMeta } from '../api/queries.ts';
import type { AdminUser } from '../api/types.ts';
import { useAdminMutation } from '../common/use-admin-mutation.ts';
import { SectionCard } from './section-card.tsx';

interface RolesForm {
  roles: string[];
}

export function UserRolesCard({ user }: { user: AdminUser }) {
  const { t } = useTranslation();
  const meta = useAdminMeta();
  const form = useForm<RolesForm>({ defaultValues: { roles: user.roles } });
  const { reset } = form;
  const savedRoles = user.roles.join('\n');
  // When the saved roles change (this save, or another admin's), the form starts from them again.
  useEffect(() => reset({ roles: savedRoles ? savedRoles.split('\n') : [] }), [savedRoles, reset]);

  const save = useAdminMutation({
    mutationFn: (values: RolesForm) => updateUserRoles(user.id, values.roles),
    invalidates: [queryKeys.users, queryKeys.user(user.id)],
    successMessage: () => t('user.roles.saved'),
  });
  const choices = [...new Set([...(meta.data?.roles ?? []), ...user.roles])];
  const protectedRoles = meta.data?.protected_roles ?? [];

  return (
    <SectionCard title={t('user.roles.title')} description={t('user.roles.description')}>
      <form onSubmit={form.handleSubmit((values) => save.mutate(values))} noValidate>
        <Controller
          control={form.control}
          name="roles"
          rules={{ validate: (roles) => roles.length > 0 || t('user.roles.required') }}
          render={({ field, fieldState }) => (
            <MultiSelect
              label={t('user.roles.label')}
              data={choices}
              value={field.value}
              onChange={field.onChange}
              onBlur={field.onBlur}
              ref={field.ref}
              searchable
              disabled={meta.isPending}
              error={fieldState.error?.message}
              nothingFoundMessage={t('user.roles.noMatch')}
            />
          )}
        />
        {protectedRoles.length > 0 && (
          <Text size="xs" c="dimmed" mt={6}>
            {t('user.roles.protected', { roles: protectedRoles.join(', ') })}
          </Text>
        )}
        <Group justify="flex-end" mt="md">
          <Button variant="default" onClick={() => form.reset()} disabled={!form.formState.isDirty || save.isPending}>
            {t('common.reset')}
          </Button>
          <Button type="submit" loading={save.isPending} disabled={!form.formState.isDirty}>
            {t('user.roles.save')}
          </Button>
        </Group>
      </form>
    </SectionCard>
  );
}
