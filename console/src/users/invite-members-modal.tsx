/**
 * Invite members (`_invite_members`): a list of emails, each gets an account and a link to set a password.
 * The server skips addresses that already have an account and says how many it invited.
 */
import { Controller, useForm } from 'react-hook-form';
import { Modal, Stack, TagsInput, Text, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { inviteMembers } from '../api/mutations.ts';
import { queryKeys } from '../api/queries.ts';
import { DialogButtons } from '../common/form-buttons.tsx';
import { useAdminMutation } from '../common/use-admin-mutation.ts';

interface InviteForm {
  emails: string[];
  redirectUri: string;
}

const MAX_EMAILS = 100; // the server's limit (InviteMembersRequest maxItems)
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function InviteMembersModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const form = useForm<InviteForm>({ defaultValues: { emails: [], redirectUri: '' } });
  const invite = useAdminMutation({
    mutationFn: (values: InviteForm) => inviteMembers(values.emails, values.redirectUri.trim() || undefined),
    invalidates: [queryKeys.users],
    onSuccess: () => {
      form.reset();
      onClose();
    },
  });

  return (
    <Modal opened={opened} onClose={onClose} title={t('users.invite.title')} centered size="lg">
      <form onSubmit={form.handleSubmit((values) => invite.mutate(values))} noValidate>
        <Stack>
          <Text size="sm" c="dimmed">
            {t('users.invite.intro')}
          </Text>
          <Controller
            control={form.control}
            name="emails"
            rules={{
              validate: (emails) => {
                if (emails.length === 0) return t('users.invite.emailsRequired');
                if (emails.length > MAX_EMAILS) return t('users.invite.tooMany', { max: MAX_EMAILS });
                const bad = emails.find((email) => !EMAIL.test(email));
                return bad ? t('users.invite.invalidEmail', { email: bad }) : true;
              },
            }}
            render={({ field, fieldState }) => (
              <TagsInput
                label={t('users.invite.emailsLabel')}
                description={t('users.invite.emailsHint')}
                placeholder={t('users.invite.emailsPlaceholder')}
                value={field.value}
                onChange={(values) => field.onChange(values.map((v) => v.trim()).filter(Boolean))}
                onBlur={field.onBlur}
                ref={field.ref}
                splitChars={[',', ' ', ';']}
                acceptValueOnBlur
                clearable
                required
                error={fieldState.error?.message}
                data-autofocus
              />
            )}
          />
          <TextInput
            label={t('users.invite.redirectLabel')}
            description={t('users.invite.redirectHint')}
            placeholder="https://app.example.com/welcome"
            type="url"
            {...form.register('redirectUri')}
          />
          <DialogButtons onCancel={onClose} submitLabel={t('users.invite.submit')} submitting={invite.isPending} />
        </Stack>
      </form>
    </Modal>
  );
}
