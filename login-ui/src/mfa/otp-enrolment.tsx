/**
 * Setting up email or SMS codes as a second factor (docs/api-overview.md#states-and-transitions: email_otp_mfa_setup /
 * sms_otp_mfa_setup send a code and create an unverified enrolment; verify_otp with that code completes it).
 * Signed in it adds the factor; in a first-time offer (mfa cookie) the confirmation also signs in.
 */
import { Anchor, Button, Group, Stack, Text } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { emailOtpMfaSetup, smsOtpMfaSetup } from '../api/mfa-operations.ts';
import { verifyOtp } from '../api/operations.ts';
import type { AuthAnswer, Identifier } from '../api/types.ts';
import { Notice } from '../layout/notice.tsx';
import { CodeField, SIX_DIGITS } from './code-field.tsx';
import { MfaError } from './mfa-error.tsx';
import { codeMethodOf, whoFields } from './mfa-step.ts';
import { useCoolDown } from './use-cool-down.ts';

export function OtpEnrolment({ channel, who, destination, onDone }: {
  channel: 'email' | 'sms';
  who?: Identifier;
  /** The address or number the code goes to, when the page knows it. */
  destination?: string | null;
  onDone: (answer: AuthAnswer) => void;
}) {
  const { t } = useTranslation();
  const coolDown = useCoolDown();
  const send = useMutation({
    mutationFn: () => (channel === 'email' ? emailOtpMfaSetup(whoFields(who)) : smsOtpMfaSetup(whoFields(who))),
    onMutate: () => coolDown.start(),
    onError: (err) => coolDown.startFromError(err),
  });
  const { register, handleSubmit, formState } = useForm<{ otp: string }>({ defaultValues: { otp: '' } });
  const confirm = useMutation({ mutationFn: (otp: string) => verifyOtp({ otp, ...whoFields(who), mfa_method: codeMethodOf(channel) }), onSuccess: onDone });
  const prefix = channel === 'email' ? 'mfa.enrolEmail' : 'mfa.enrolSms';

  if (!send.isSuccess) {
    return (
      <Stack gap="md">
        <Text fz="sm">{destination ? t(`${prefix}.introTo`, { destination }) : t(`${prefix}.intro`)}</Text>
        <MfaError title={t('mfa.enrol.failed')} error={send.error} />
        <Button fullWidth loading={send.isPending} onClick={() => send.mutate()}>
          {t(`${prefix}.send`)}
        </Button>
      </Stack>
    );
  }
  return (
    <form onSubmit={handleSubmit((values) => confirm.mutate(values.otp.trim()))} noValidate aria-label={t('mfa.enrol.confirm')}>
      <Stack gap="md">
        <Notice title={t('mfa.codeSent')}>{send.data.message}</Notice>
        <MfaError title={t('mfa.enrol.failed')} error={confirm.error ?? send.error} />
        <CodeField
          label={t('fields.code')}
          error={formState.errors.otp?.message ? t(formState.errors.otp.message) : undefined}
          {...register('otp', { validate: (value) => SIX_DIGITS.test(value.trim()) || 'validation.code' })}
        />
        <Button type="submit" fullWidth loading={confirm.isPending}>
          {t('mfa.enrol.confirm')}
        </Button>
        <Group justify="flex-start">
          {coolDown.secondsLeft > 0 ? (
            <Text fz="sm" c="dimmed" role="status">
              {t('mfa.resendIn', { seconds: coolDown.secondsLeft })}
            </Text>
          ) : (
            <Anchor component="button" type="button" fz="sm" onClick={() => send.mutate()}>
              {t('mfa.resend')}
            </Anchor>
          )}
        </Group>
      </Stack>
    </form>
  );
}
