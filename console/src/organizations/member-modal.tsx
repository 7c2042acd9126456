/**
 * Adding a member (`_add_org_member`: a user picked by a server-side search of `_users`, with org roles) or
 * editing a member's org roles (the same operation: it replaces the roles of a user who is a member already).
 * Roles are free tags, checked as the server checks them; service:org_admin is offered and explained.
 */
import { useEffect, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { Alert, Modal, Select, Stack, TagsInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconShieldCheck } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useUsers } from '../api/queries.ts';
import { DialogButtons } from '../common/form-buttons.tsx';
import { userLabel } from '../common/format.ts';
import { useAdminMutation } from '../common/use-admin-mutation.ts';
import { addOrgMember, organizationKeys, type OrgMember } from './api.ts';
import { MAX_ROLE, MAX_ROLES, ORG_ADMIN_ROLE } from './org-rules.ts';

interface MemberValues {
  userId: string;
  roles: string[];
}

const SEARCH_DEBOUNCE_MS = 300;
const SEARCH_LIMIT = 10;

/** The user search of the add dialog: the server's `_users` search, never a list of every account. */
function UserPicker({ value, onChange, error }: { value: string; onChange: (id: string) => void; error?: string }) {
  const { t } = useTranslation('organizations');
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), SEARCH_DEBOUNCE_MS);
  const users = useUsers(debounced, { page: 1, limit: SEARCH_LIMIT });
  const options = (users.data?.users ?? []).map((user) => ({ value: user.id, label: userLabel(user) }));
  return (
    <Select
      label={t('members.user')}
      description={t('members.userHint')}
      placeholder={t('members.userPlaceholder')}
      required
      data-autofocus
      searchable
      data={options}
      // The server already filtered by the search; the list shows its answer as it is.
      filter={({ options: all }) => all}
      searchValue={search}
      onSearchChange={setSearch}
      value={value || null}
      onChange={(id) => onChange(id ?? '')}
      nothingFoundMessage={users.isFetching ? '…' : t('members.noUser')}
      comboboxProps={{ withinPortal: true }}
      error={error}
    />
  );
}

/** `member` undefined: add a new member. */
export function MemberModal({ opened, orgId, member, onClose }: { opened: boolean; orgId: string; member?: OrgMember; onClose: () => void }) {
  const { t } = useTranslation('organizations');
  const form = useForm<MemberValues>({ defaultValues: { userId: '', roles: [] } });
  useEffect(() => {
    if (opened) form.reset({ userId: member?.user_id ?? '', roles: member?.roles ?? [] });
  }, [opened, member, form]);
  const save = useAdminMutation({
    mutationFn: (values: MemberValues) => addOrgMember(orgId, values.userId, values.roles),
    invalidates: [organizationKeys.members(orgId)],
    successMessage: () => (member ? t('members.saved') : t('members.added')),
    onSuccess: onClose,
  });
  const who = member ? (member.user ? userLabel(member.user) : member.user_id) : '';

  return (
    <Modal opened={opened} onClose={onClose} title={member ? t('members.editTitle', { user: who }) : t('members.addTitle')} centered size="lg">
      <form onSubmit={form.handleSubmit((values) => save.mutate(values))} noValidate>
        <Stack gap="md">
          {!member && (
            <Controller
              control={form.control}
              name="userId"
              rules={{ validate: (id) => Boolean(id) || t('members.userRequired') }}
              render={({ field, fieldState }) => <UserPicker value={field.value} onChange={field.onChange} error={fieldState.error?.message} />}
            />
          )}
          <Controller
            control={form.control}
            name="roles"
            rules={{
              validate: (roles) => {
                if (roles.length > MAX_ROLES) return t('members.tooManyRoles', { max: MAX_ROLES });
                return roles.every((role) => role.length <= MAX_ROLE) || t('members.roleTooLong', { max: MAX_ROLE });
              },
            }}
            render={({ field, fieldState }) => (
              <TagsInput
                label={t('members.roles')}
                description={t('members.rolesHint')}
                data={[ORG_ADMIN_ROLE]}
                value={field.value}
                onChange={(roles) => field.onChange([...new Set(roles.map((role) => role.trim()).filter(Boolean))])}
                onBlur={field.onBlur}
                ref={field.ref}
                data-autofocus={member ? true : undefined}
                clearable
                error={fieldState.error?.message}
                comboboxProps={{ withinPortal: true }}
              />
            )}
          />
          <Alert variant="light" color="blue" icon={<IconShieldCheck size={18} />}>
            {t('members.orgAdminHint')}
          </Alert>
          <DialogButtons onCancel={onClose} submitLabel={member ? t('members.save') : t('members.add')} submitting={save.isPending} />
        </Stack>
      </form>
    </Modal>
  );
}
