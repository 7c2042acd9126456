/** The console's only page for a signed-out visitor: the admin secret (docs/api-overview.md#authentication: `_admin_login` sets the admin cookie). */
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Alert, Avatar, Button, Center, Group, Paper, PasswordInput, Stack, Text, Title } from '@mantine/core';
import { IconAlertTriangle, IconShieldLock } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../ui-shared/graphql-client.ts';
import { readBranding } from '../../../ui-shared/branding.ts';
import { adminLogin } from '../api/mutations.ts';
import { queryKeys } from '../api/queries.ts';

interface SignInForm {
  adminSecret: string;
}

export function SignInPage() {
  const { t } = useTranslation();
  const branding = readBranding();
  const queryClient = useQueryClient();
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<SignInForm>({ defaultValues: { adminSecret: '' } });
  const login = useMutation({
    mutationFn: (values: SignInForm) => adminLogin(values.adminSecret),
    onSuccess: async () => {
      setFailure(null);
      // The secret leaves the page's memory once it has served (the form field is cleared).
      form.reset();
      // The login just set a fresh cookie: no `_admin_session` right now. That call renews the cookie and
      // drops the one presented (admin.service.ts renewAdminSession), so the first page's reads, sent with
      // the login's cookie at the same moment, were refused as unauthenticated now and then.
      queryClient.setQueryData(queryKeys.adminSession, true);
    },
    onError: (err) => {
      setFailure(errorMessage(err));
      form.setFocus('adminSecret');
    },
  });

  return (
    <Center mih="100vh" p="md" bg="var(--mantine-color-gray-0)">
      <Paper component="main" withBorder shadow="sm" radius="lg" p="xl" w="100%" maw={420}>
        <form onSubmit={form.handleSubmit((values) => login.mutate(values))} noValidate>
          <Stack gap="lg">
            <Group gap="sm" wrap="nowrap">
              {branding.organizationLogo ? (
                <Avatar src={branding.organizationLogo} alt="" radius="md" size="md" />
              ) : (
                <Avatar color="portcullis" radius="md" size="md" aria-hidden>
                  <IconShieldLock size={22} />
                </Avatar>
              )}
              <Stack gap={0}>
                <Title order={1} size="h3">
                  {t('auth.title', { organization: branding.organizationName })}
                </Title>
                <Text size="sm" c="dimmed">
                  {t('auth.subtitle')}
                </Text>
              </Stack>
            </Group>
            <Text size="sm" c="dimmed">
              {t('auth.intro')}
            </Text>
            {failure && (
              <Alert color="red" variant="light" icon={<IconAlertTriangle size={18} />} title={t('auth.failed')} role="alert">
                {failure}
              </Alert>
            )}
            <PasswordInput
              label={t('auth.secretLabel')}
              description={t('auth.secretHint')}
              autoComplete="current-password"
              autoFocus
              required
              error={form.formState.errors.adminSecret?.message}
              {...form.register('adminSecret', { required: t('auth.secretRequired') })}
            />
            <Button type="submit" loading={login.isPending} fullWidth>
              {t('auth.submit')}
            </Button>
          </Stack>
        </form>
      </Paper>
    </Center>
  );
}
