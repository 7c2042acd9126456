/**
 * An emailed or texted code as the second factor (docs/operations.md#verify_otp without is_totp, and
 * resend_otp, both with the mfa cookie). When the server already sent the code with the sign-in's answer the
 * field is ready; when the person picked this method among several, it asks for one first. A new code can be
 * asked for after a pause (useCoolDown), shown as a count-down. Both calls name the screen's factor
 * (`mfa_method`): for a user with email and SMS codes the newest code sent would decide otherwise, and the
 * person who signed in by email may have picked the texted code.
 */
import { Anchor, Button, Group, Stack, Text } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { resendOtp, verifyOtp } from '../api/operations.ts';
import { Notice } from '../layout/notice.tsx';
import { CodeField, SIX_DIGITS } from './code-field.tsx';
import { MfaError } from './mfa-error.tsx';
import { codeMethodOf, whoFields, type MfaStep } from './mfa-step.ts';
import { useCoolDown } from './use-cool-down.ts';
import { useSignInAnswer } from './use-sign-in-answer.ts';

export function OtpChallenge({ step, channel, sendFirst }: { step: MfaStep; channel: 'email' | 'sms'; sendFirst: boolean }) {
  const { t } = useTranslation();
  const onAnswer = useSignInAnswer();
  const coolDown = useCoolDown();
  const who = { ...whoFields(step.who), mfa_method: codeMethodOf(channel) };
  const { register, handleSubmit, formState } = useForm<{ otp: string }>({ defaultValues: { otp: '' } });
  const verify = useMutation({
    mutationFn: (otp: string) => verifyOtp({ otp, ...who }),
    onSuccess: (answer) => onAnswer(answer, step.who),
  });
  const resend = useMutation({
    mutationFn: () => resendOtp(who),
    onMutate: () => coolDown.start(),
    onError: (err) => coolDown.startFromError(err),
  });
  // The code the sign-in's answer already sent counts as the first send: the pause starts with the screen.
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    if (sendFirst) resend.mutate();
    else coolDown.start();
  }, [sendFirst, resend, coolDown]);
  const prefix = channel === 'email' ? 'mfa.email' : 'mfa.sms';
  return (
    <form onSubmit={handleSubmit((values) => verify.mutate(values.otp.trim()))} noValidate aria-label={t(`${prefix}.submit`)}>
      <Stack gap="md">
        <MfaError title={t('mfa.failed')} error={verify.error ?? resend.error} />
        {/* The UI's own words: the server's message speaks of "OTP", which means nothing to most people. */}
        {resend.isSuccess ? <Notice title={t('mfa.codeSent')}>{t(`${prefix}.sent`)}</Notice> : null}
        <CodeField
          label={t('fields.code')}
          error={formState.errors.otp?.message ? t(formState.errors.otp.message) : undefined}
          {...register('otp', { validate: (value) => SIX_DIGITS.test(value.trim()) || 'validation.code' })}
        />
        <Button type="submit" fullWidth loading={verify.isPending}>
          {t(`${prefix}.submit`)}
        </Button>
        <Group justify="flex-start" gap="xs">
          {coolDown.secondsLeft > 0 ? (
            <Text fz="sm" c="dimmed" role="status" data-testid="resend-cool-down">
              {t('mfa.resendIn', { seconds: coolDown.secondsLeft })}
            </Text>
          ) : (
            <Anchor component="button" type="button" fz="sm" disabled={resend.isPending} onClick={() => resend.mutate()}>
              {t('mfa.resend')}
            </Anchor>
          )}
        </Group>
      </Stack>
    </form>
  );
}
