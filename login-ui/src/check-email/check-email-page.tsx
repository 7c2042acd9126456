/**
 * After an email signup on a server with --enable-email-verification: the account waits for its emailed
 * link (GET /verify_email signs the person in and lands on the application or /app). The address comes
 * from the signup screen in memory (router state), never from the URL.
 */
import { Button, Stack, Text } from '@mantine/core';
import { IconMailForward } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Navigate, useLocation } from 'react-router';
import { resendVerifyEmail } from '../api/operations.ts';
import { AppLink, withRoundTrip } from '../layout/app-link.tsx';
import { AuthLayout } from '../layout/auth-layout.tsx';
import { FormError } from '../layout/form-error.tsx';
import { RichText } from '../layout/rich-text.tsx';
import { Notice } from '../layout/notice.tsx';

export function CheckEmailPage() {
  const { t } = useTranslation();
  const email = (useLocation().state as { email?: string } | null)?.email;
  const resend = useMutation({ mutationFn: (address: string) => resendVerifyEmail({ email: address }) });
  if (!email) return <Navigate to={withRoundTrip('/')} replace />;
  return (
    <AuthLayout title={t('checkEmail.title')} footer={<AppLink to="/">{t('common.backToSignIn')}</AppLink>}>
      <Stack gap="md" data-testid="check-email">
        <Text fz="sm"><RichText i18nKey="checkEmail.body" name="email" value={email} /></Text>
        <Text fz="sm" c="dimmed">
          {t('checkEmail.hint')}
        </Text>
        {resend.isSuccess ? <Notice title={t('checkEmail.resent')}>{resend.data.message}</Notice> : null}
        <FormError title={t('common.somethingWrong')} error={resend.error} />
        <Button variant="default" leftSection={<IconMailForward size={18} />} loading={resend.isPending} onClick={() => resend.mutate(email)}>
          {t('checkEmail.resend')}
        </Button>
      </Stack>
    </AuthLayout>
  );
}
