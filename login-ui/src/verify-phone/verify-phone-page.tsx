/**
 * Phone verification by texted code (docs/operations.md#verify_otp / resend_otp): reached after a
 * phone signup that needs it (should_show_mobile_otp_screen) or a phone sign-in refused as unverified.
 * The number comes from that screen in memory (router state), never from the URL; without one, the
 * person types it and a code is texted. A verified code signs the person in (session cookies).
 */
import { Anchor, Button, Group, Stack, TextInput } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { resendOtp, verifyOtp } from '../api/operations.ts';
import { IdentifierField } from '../identifier/identifier-field.tsx';
import { parseIdentifier } from '../identifier/identifier.ts';
import { AppLink } from '../layout/app-link.tsx';
import { AuthLayout } from '../layout/auth-layout.tsx';
import { FormError } from '../layout/form-error.tsx';
import { RichText } from '../layout/rich-text.tsx';
import { Notice } from '../layout/notice.tsx';
import { useSignInAnswer } from '../mfa/use-sign-in-answer.ts';

const PHONE_ONLY = { email: false, phone: true };

export function VerifyPhonePage() {
  const { t } = useTranslation();
  const [phone, setPhone] = useState<string | undefined>((useLocation().state as { phone?: string } | null)?.phone);
  const footer = <AppLink to="/">{t('common.backToSignIn')}</AppLink>;
  return (
    <AuthLayout
      title={t('verifyPhone.title')}
      subtitle={phone ? <RichText i18nKey="verifyPhone.subtitle" name="phone" value={phone} /> : t('verifyPhone.askPhone')}
      footer={footer}
    >
      {phone ? <CodeForm phone={phone} onChangeNumber={() => setPhone(undefined)} /> : <PhoneForm onSent={setPhone} />}
    </AuthLayout>
  );
}

function PhoneForm({ onSent }: { onSent: (phone: string) => void }) {
  const { t } = useTranslation();
  const { register, handleSubmit, formState } = useForm<{ phone: string }>({ defaultValues: { phone: '' } });
  const send = useMutation({ mutationFn: (phone: string) => resendOtp({ phone_number: phone }), onSuccess: (_answer, phone) => onSent(phone) });
  return (
    <form
      onSubmit={handleSubmit((values) => {
        const who = parseIdentifier(values.phone, PHONE_ONLY);
        if (who?.phone_number) send.mutate(who.phone_number);
      })}
      noValidate
      aria-label={t('verifyPhone.sendCode')}
    >
      <Stack gap="md">
        <FormError title={t('verifyPhone.failed')} error={send.error} />
        <IdentifierField
          modes={PHONE_ONLY}
          purpose="sign-in"
          autoFocus
          error={formState.errors.phone?.message ? t(formState.errors.phone.message) : undefined}
          {...register('phone', { validate: (value) => (parseIdentifier(value, PHONE_ONLY) ? true : 'validation.phone') })}
        />
        <Button type="submit" fullWidth loading={send.isPending}>
          {t('verifyPhone.sendCode')}
        </Button>
      </Stack>
    </form>
  );
}

function CodeForm({ phone, onChangeNumber }: { phone: string; onChangeNumber: () => void }) {
  const { t } = useTranslation();
  const onAnswer = useSignInAnswer();
  const { register, handleSubmit, formState } = useForm<{ otp: string }>({ defaultValues: { otp: '' } });
  const verify = useMutation({
    mutationFn: (otp: string) => verifyOtp({ phone_number: phone, otp }),
    // A session, or (a user with a second factor) on to the MFA step.
    onSuccess: (answer) => onAnswer(answer, { phone_number: phone }),
  });
  const resend = useMutation({ mutationFn: () => resendOtp({ phone_number: phone }) });
  return (
    <form onSubmit={handleSubmit((values) => verify.mutate(values.otp.trim()))} noValidate aria-label={t('verifyPhone.submit')}>
      <Stack gap="md">
        <FormError title={t('verifyPhone.failed')} error={verify.error ?? resend.error} />
        {resend.isSuccess ? <Notice title={t('verifyPhone.resent')}>{resend.data.message}</Notice> : null}
        <TextInput
          label={t('fields.code')}
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={6}
          withAsterisk
          autoFocus
          styles={{ input: { letterSpacing: '0.3em', fontVariantNumeric: 'tabular-nums' } }}
          error={formState.errors.otp?.message ? t(formState.errors.otp.message) : undefined}
          {...register('otp', { validate: (value) => /^\d{6}$/.test(value.trim()) || 'validation.code' })}
        />
        <Button type="submit" fullWidth loading={verify.isPending}>
          {t('verifyPhone.submit')}
        </Button>
        <Group justify="space-between" gap="xs" wrap="wrap">
          <Anchor component="button" type="button" fz="sm" disabled={resend.isPending} onClick={() => resend.mutate()}>
            {t('verifyPhone.resend')}
          </Anchor>
          <Anchor component="button" type="button" fz="sm" c="dimmed" onClick={onChangeNumber}>
            {t('verifyPhone.changeNumber')}
          </Anchor>
        </Group>
      </Stack>
    </form>
  );
}
