/**
 * The authenticator-app challenge (docs/operations.md#verify_otp with is_totp and the mfa cookie): a
 * six-digit code from the app, or, behind a switch, one of the ten recovery codes (each works once). The
 * server ends the step after five wrong codes; the person is then sent back to sign in (MfaError).
 */
import { Anchor, Button, Group, Stack } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { verifyOtp } from '../api/operations.ts';
import { CodeField, normalRecoveryCode, RECOVERY_CODE, SIX_DIGITS } from './code-field.tsx';
import { MfaError } from './mfa-error.tsx';
import { whoFields, type MfaStep } from './mfa-step.ts';
import { useSignInAnswer } from './use-sign-in-answer.ts';

export function TotpChallenge({ step }: { step: MfaStep }) {
  const { t } = useTranslation();
  const [recovery, setRecovery] = useState(false);
  const onAnswer = useSignInAnswer();
  const { register, handleSubmit, formState, reset } = useForm<{ otp: string }>({ defaultValues: { otp: '' } });
  const verify = useMutation({
    mutationFn: (otp: string) => verifyOtp({ otp, is_totp: true, ...whoFields(step.who) }),
    onSuccess: (answer) => onAnswer(answer, step.who),
  });
  const toggle = () => {
    setRecovery((value) => !value);
    reset({ otp: '' });
    verify.reset();
  };
  const submit = handleSubmit((values) => verify.mutate(recovery ? normalRecoveryCode(values.otp) : values.otp.trim()));
  return (
    <form onSubmit={submit} noValidate aria-label={t('mfa.totp.submit')}>
      <Stack gap="md">
        <MfaError title={t('mfa.failed')} error={verify.error} />
        <CodeField
          key={recovery ? 'recovery' : 'totp'}
          recovery={recovery}
          label={recovery ? t('mfa.totp.recoveryLabel') : t('mfa.totp.codeLabel')}
          description={recovery ? t('mfa.totp.recoveryHint') : undefined}
          placeholder={recovery ? 'XXXXX-XXXXX' : undefined}
          error={formState.errors.otp?.message ? t(formState.errors.otp.message) : undefined}
          {...register('otp', {
            validate: (value) => (recovery ? RECOVERY_CODE.test(value.trim()) || 'validation.recoveryCode' : SIX_DIGITS.test(value.trim()) || 'validation.code'),
          })}
        />
        <Button type="submit" fullWidth loading={verify.isPending}>
          {t('mfa.totp.submit')}
        </Button>
        <Group justify="flex-start">
          <Anchor component="button" type="button" fz="sm" onClick={toggle}>
            {recovery ? t('mfa.totp.useApp') : t('mfa.totp.useRecovery')}
          </Anchor>
        </Group>
      </Stack>
    </form>
  );
}
