/**
 * Choose a new password (docs/operations.md#reset_password), with the emailed link's token
 * (/app/reset-password?token=...) or with the code texted to a phone number (from the forgot-password
 * screen, in memory). The token is read once and then removed from the address bar and history, so it
 * does not linger where a shared screen or a later Referer could show it (OWASP ASVS 3.1.1). A reset ends
 * every session of the account on the server, so this page records the person as signed out.
 */
import { Button, Stack, Text, TextInput } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { resetPassword } from '../api/operations.ts';
import { setSignedOut } from '../api/queries.ts';
import type { Meta } from '../api/types.ts';
import { AppLink, withRoundTrip } from '../layout/app-link.tsx';
import { AuthLayout } from '../layout/auth-layout.tsx';
import { FormError } from '../layout/form-error.tsx';
import { RichText } from '../layout/rich-text.tsx';
import { Notice } from '../layout/notice.tsx';
import { NewPasswordFields, type NewPasswordValues } from '../password/new-password-fields.tsx';
import { bannerError } from '../password/password-rules.ts';

interface ResetValues extends NewPasswordValues {
  otp: string;
}

export function ResetPasswordPage({ meta }: { meta: Meta }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const client = useQueryClient();
  const [searchParams] = useSearchParams();
  const [token] = useState(() => searchParams.get('token') ?? '');
  const phone = (useLocation().state as { phone?: string } | null)?.phone;
  useEffect(() => {
    if (searchParams.has('token')) void navigate(withRoundTrip('/reset-password'), { replace: true, state: phone ? { phone } : null });
  }, [searchParams, navigate, phone]);
  const { register, handleSubmit, watch, formState } = useForm<ResetValues>({ defaultValues: { otp: '', password: '', confirm_password: '' } });
  const mutation = useMutation({
    mutationFn: (values: ResetValues) =>
      resetPassword({
        ...(token ? { token } : { otp: values.otp.trim(), phone_number: phone! }),
        password: values.password,
        confirm_password: values.confirm_password,
      }),
    onSuccess: () => setSignedOut(client),
  });
  const footer = <AppLink to="/">{t('common.backToSignIn')}</AppLink>;

  if (mutation.isSuccess) {
    return (
      <AuthLayout title={t('resetPassword.doneTitle')}>
        <Stack gap="md" data-testid="reset-password-done">
          <Notice title={mutation.data.message} />
          <Text fz="sm">{t('resetPassword.doneBody')}</Text>
          <Button onClick={() => void navigate(withRoundTrip('/'))}>{t('resetPassword.continue')}</Button>
        </Stack>
      </AuthLayout>
    );
  }
  if (!token && !phone) {
    return (
      <AuthLayout title={t('resetPassword.title')} footer={footer}>
        <Text fz="sm">{t('resetPassword.missingToken')}</Text>
        <Button variant="default" onClick={() => void navigate(withRoundTrip('/forgot-password'))}>
          {t('resetPassword.requestNew')}
        </Button>
      </AuthLayout>
    );
  }
  return (
    <AuthLayout
      title={t('resetPassword.title')}
      subtitle={token ? t('resetPassword.subtitle') : <RichText i18nKey="resetPassword.phoneSubtitle" name="phone" value={phone!} />}
      footer={footer}
    >
      <form onSubmit={handleSubmit((values) => mutation.mutate(values))} noValidate aria-label={t('resetPassword.submit')}>
        <Stack gap="md">
          <FormError title={t('resetPassword.failed')} error={bannerError(mutation.error)} />
          {token ? null : (
            <TextInput
              label={t('fields.code')}
              inputMode="numeric"
              autoComplete="one-time-code"
              withAsterisk
              autoFocus
              error={formState.errors.otp?.message ? t(formState.errors.otp.message) : undefined}
              {...register('otp', { validate: (value) => /^\d{6}$/.test(value.trim()) || 'validation.code' })}
            />
          )}
          <NewPasswordFields
            register={register}
            watch={watch}
            errors={formState.errors}
            strong={meta.is_strong_password_enabled}
            minStrength={meta.password_min_strength}
            serverError={mutation.error}
            label={t('fields.newPassword')}
          />
          <Button type="submit" fullWidth loading={mutation.isPending}>
            {t('resetPassword.submit')}
          </Button>
        </Stack>
      </form>
    </AuthLayout>
  );
}
