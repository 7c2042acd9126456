/**
 * Add a user without email (`_create_user`): an email address and/or phone number, names, roles, and either
 * an initial password (the person must choose their own at first sign-in) or a one-time set-password link the
 * administrator copies and passes on. The link is shown once, in this dialog, which then closes only by its
 * buttons (no click outside, no Escape), as the client secret dialog does.
 */
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { Alert, Button, Group, Modal, MultiSelect, PasswordInput, SegmentedControl, Stack, Text, TextInput } from '@mantine/core';
import { IconAlertTriangle, IconDice5, IconUserCheck } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { queryKeys, useAdminMeta } from '../api/queries.ts';
import { CopyableValue } from '../common/copyable-value.tsx';
import { DialogButtons } from '../common/form-buttons.tsx';
import { formatTimestamp } from '../common/format.ts';
import { useAdminMutation } from '../common/use-admin-mutation.ts';
import { createUser, randomInitialPassword, type CreatedUser, type NewUserFields } from './create-user-api.ts';

type PasswordMode = 'password' | 'link';

/** The answer, with the initial password the administrator has to pass on (kept only while the dialog is open). */
type Created = CreatedUser & { initialPassword?: string };

interface CreateUserForm {
  email: string;
  phoneNumber: string;
  givenName: string;
  familyName: string;
  roles: string[];
  mode: PasswordMode;
  password: string;
}

const EMPTY: CreateUserForm = { email: '', phoneNumber: '', givenName: '', familyName: '', roles: [], mode: 'password', password: '' };
const EMAIL = /^[^\s@]+@[^\s@]+$/;

function fieldsOf(values: CreateUserForm): NewUserFields {
  const text = (value: string) => value.trim() || undefined;
  return {
    email: text(values.email),
    phone_number: text(values.phoneNumber),
    given_name: text(values.givenName),
    family_name: text(values.familyName),
    roles: values.roles,
    ...(values.mode === 'password' ? { password: values.password } : { set_password_link: true }),
  };
}

/** What the dialog shows once the user exists: the link (once) or how the initial password works. */
function CreatedStep({ created, onOpen, onDone }: { created: Created; onOpen: () => void; onDone: () => void }) {
  const { t } = useTranslation();
  const link = created.set_password_link;
  return (
    <Stack gap="md">
      {link ? (
        <>
          <Alert color="orange" variant="light" icon={<IconAlertTriangle size={18} />} title={t('users.create.linkOnceTitle')}>
            {t('users.create.linkOnceBody', { time: formatTimestamp(created.set_password_link_expires_at) })}
          </Alert>
          <CopyableValue label={t('users.create.linkLabel')} value={link} testId="set-password-link" />
        </>
      ) : (
        <>
          <Alert color="teal" variant="light" icon={<IconUserCheck size={18} />} title={t('users.create.passwordDoneTitle')}>
            {t('users.create.passwordDoneBody')}
          </Alert>
          <CopyableValue label={t('users.create.password')} value={created.initialPassword ?? ''} testId="initial-password" />
        </>
      )}
      <Group justify="flex-end" gap="sm">
        <Button variant="default" onClick={onOpen}>
          {t('users.create.openUser')}
        </Button>
        <Button onClick={onDone} data-autofocus>
          {link ? t('users.create.linkStored') : t('common.done')}
        </Button>
      </Group>
    </Stack>
  );
}

export function CreateUserModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const meta = useAdminMeta();
  const form = useForm<CreateUserForm>({ defaultValues: EMPTY });
  const [created, setCreated] = useState<Created | undefined>();
  const [passwordVisible, setPasswordVisible] = useState(false);
  const mode = form.watch('mode');
  const create = useAdminMutation({
    mutationFn: async (values: CreateUserForm): Promise<Created> => {
      const answer = await createUser(fieldsOf(values));
      return values.mode === 'password' ? { ...answer, initialPassword: values.password } : answer;
    },
    invalidates: [queryKeys.users],
    successMessage: () => undefined,
    onSuccess: (answer) => {
      form.reset(EMPTY);
      setPasswordVisible(false);
      setCreated(answer);
    },
  });

  const close = () => {
    // Forget the link and the password: nothing keeps them once the dialog is gone (the mutation's own copy included).
    setCreated(undefined);
    setPasswordVisible(false);
    create.reset();
    form.reset(EMPTY);
    onClose();
  };
  const openUser = () => {
    const id = created!.user.id;
    close();
    void navigate(`/users/${encodeURIComponent(id)}`);
  };
  const roleChoices = meta.data?.roles ?? [];
  // The instance's default roles until the administrator picks others (the server's rule when none are sent).
  const rolesValue = (value: string[]) => (value.length === 0 && !form.formState.dirtyFields.roles ? (meta.data?.default_roles ?? []) : value);

  return (
    <Modal
      opened={opened}
      onClose={close}
      title={created ? t('users.create.createdTitle') : t('users.create.title')}
      centered
      size="lg"
      closeOnClickOutside={!created}
      closeOnEscape={!created}
      withCloseButton={!created}
    >
      {created ? (
        <CreatedStep created={created} onOpen={openUser} onDone={close} />
      ) : (
        <form onSubmit={form.handleSubmit((values) => create.mutate({ ...values, roles: rolesValue(values.roles) }))} noValidate>
          <Stack>
            <Text size="sm" c="dimmed">
              {t('users.create.intro')}
            </Text>
            <TextInput
              label={t('users.create.email')}
              type="email"
              autoComplete="off"
              data-autofocus
              error={form.formState.errors.email?.message}
              {...form.register('email', {
                validate: (email, values) => {
                  if (!email.trim() && !values.phoneNumber.trim()) return t('users.create.contactRequired');
                  return !email.trim() || EMAIL.test(email.trim()) || t('users.create.emailInvalid');
                },
              })}
            />
            <TextInput
              label={t('users.create.phone')}
              description={t('users.create.phoneHint')}
              type="tel"
              autoComplete="off"
              placeholder="+15551234567"
              {...form.register('phoneNumber')}
            />
            <Group grow align="flex-start">
              <TextInput label={t('users.create.givenName')} autoComplete="off" {...form.register('givenName')} />
              <TextInput label={t('users.create.familyName')} autoComplete="off" {...form.register('familyName')} />
            </Group>
            <Controller
              control={form.control}
              name="roles"
              render={({ field }) => (
                <MultiSelect
                  label={t('users.create.roles')}
                  description={t('users.create.rolesHint')}
                  data={roleChoices}
                  value={rolesValue(field.value)}
                  onChange={field.onChange}
                  onBlur={field.onBlur}
                  ref={field.ref}
                  searchable
                  disabled={meta.isPending}
                  nothingFoundMessage={t('user.roles.noMatch')}
                />
              )}
            />
            <Controller
              control={form.control}
              name="mode"
              render={({ field }) => (
                <Stack gap={4}>
                  <Text size="sm" fw={500} id="create-user-mode">
                    {t('users.create.modeLabel')}
                  </Text>
                  <SegmentedControl
                    aria-labelledby="create-user-mode"
                    value={field.value}
                    onChange={(value) => field.onChange(value as PasswordMode)}
                    data={[
                      { value: 'password', label: t('users.create.modePassword') },
                      { value: 'link', label: t('users.create.modeLink') },
                    ]}
                    fullWidth
                  />
                </Stack>
              )}
            />
            {mode === 'password' ? (
              <Group align="flex-end" gap="xs" wrap="nowrap">
                <PasswordInput
                  style={{ flex: 1 }}
                  label={t('users.create.password')}
                  description={t('users.create.passwordHint')}
                  autoComplete="new-password"
                  visible={passwordVisible}
                  onVisibilityChange={setPasswordVisible}
                  required
                  error={form.formState.errors.password?.message}
                  {...form.register('password', {
                    validate: (password, values) => values.mode !== 'password' || password.length > 0 || t('users.create.passwordRequired'),
                  })}
                />
                <Button
                  variant="default"
                  leftSection={<IconDice5 size={16} />}
                  onClick={() => {
                    form.setValue('password', randomInitialPassword(), { shouldDirty: true, shouldValidate: true });
                    setPasswordVisible(true);
                  }}
                >
                  {t('users.create.generate')}
                </Button>
              </Group>
            ) : (
              <Text size="sm">{t('users.create.linkHint')}</Text>
            )}
            <DialogButtons onCancel={close} submitLabel={t('users.create.submit')} submitting={create.isPending} />
          </Stack>
        </form>
      )}
    </Modal>
  );
}
