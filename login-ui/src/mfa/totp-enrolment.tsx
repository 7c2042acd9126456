/**
 * Setting up an authenticator app (docs/api-overview.md#states-and-transitions, "TOTP enrollment": totp_mfa_setup, then verify_otp
 * with is_totp). Three steps: scan the QR code (or type the secret), keep the recovery codes (shown this
 * once), and confirm with a first code from the app, which is what makes the factor count. Used signed in
 * (Security page: no token is issued) and in a first-time offer (the mfa cookie: the confirmation signs in),
 * where the offer's answer already carries the enrolment (`ready`, offer-enrolment.ts); without it (a reload,
 * a redirect's offer) totp_mfa_setup with the offer's cookie starts one.
 */
import { Button, Checkbox, Code, Image, Loader, Stack, Text, Center } from '@mantine/core';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { totpMfaSetup, type TotpEnrolment as Enrolment } from '../api/mfa-operations.ts';
import { verifyOtp } from '../api/operations.ts';
import type { AuthAnswer, Identifier } from '../api/types.ts';
import { CodeField, SIX_DIGITS } from './code-field.tsx';
import { MfaError } from './mfa-error.tsx';
import { whoFields } from './mfa-step.ts';
import { RecoveryCodes } from './recovery-codes.tsx';

type Stage = 'scan' | 'codes' | 'confirm';

/** The secret in groups of four, easier to type into an app by hand (the app ignores the spaces). */
function grouped(secret: string): string {
  return secret.replace(/(.{4})/g, '$1 ').trim();
}

export function TotpEnrolment({ who, ready, onDone }: { who?: Identifier; ready?: Enrolment; onDone: (answer: AuthAnswer) => void }) {
  const { t } = useTranslation();
  const [stage, setStage] = useState<Stage>('scan');
  const [saved, setSaved] = useState(false);
  // One setup per visit: a query (not an effect) so a remount in development does not start a second one.
  // An enrolment the offer carried is used as it is: a second setup would replace its secret.
  const setup = useQuery({
    queryKey: ['totp-setup', who ?? null, ready?.authenticator_secret ?? null],
    queryFn: () => totpMfaSetup(whoFields(who)),
    initialData: ready,
    staleTime: Infinity,
    gcTime: 0,
    retry: false,
  });
  const { register, handleSubmit, formState } = useForm<{ otp: string }>({ defaultValues: { otp: '' } });
  const confirm = useMutation({ mutationFn: (otp: string) => verifyOtp({ otp, is_totp: true, ...whoFields(who) }), onSuccess: onDone });

  if (setup.isPending) {
    return (
      <Center py="lg">
        <Loader size="sm" aria-label={t('common.loading')} />
      </Center>
    );
  }
  if (setup.isError) return <MfaError title={t('mfa.enrol.failed')} error={setup.error} />;
  const enrolment = setup.data;

  if (stage === 'scan') {
    return (
      <Stack gap="md" data-testid="totp-scan">
        <Text fz="sm">{t('mfa.enrol.scan')}</Text>
        <Center>
          <Image src={enrolment.authenticator_scanner_image} alt={t('mfa.enrol.qrAlt')} w={200} h={200} fit="contain" />
        </Center>
        <Stack gap={4}>
          <Text fz="sm" c="dimmed">{t('mfa.enrol.manual')}</Text>
          <Code block fz="sm" data-testid="totp-secret" style={{ letterSpacing: '0.08em', overflowWrap: 'anywhere', whiteSpace: 'pre-wrap' }}>
            {grouped(enrolment.authenticator_secret)}
          </Code>
        </Stack>
        <Button fullWidth onClick={() => setStage('codes')}>
          {t('mfa.enrol.next')}
        </Button>
      </Stack>
    );
  }
  if (stage === 'codes') {
    return (
      <Stack gap="md">
        <Text fz="sm">{t('mfa.enrol.codesIntro')}</Text>
        <RecoveryCodes codes={enrolment.authenticator_recovery_codes} />
        <Checkbox label={t('mfa.enrol.saved')} checked={saved} onChange={(event) => setSaved(event.currentTarget.checked)} />
        <Button fullWidth disabled={!saved} onClick={() => setStage('confirm')}>
          {t('mfa.enrol.next')}
        </Button>
      </Stack>
    );
  }
  return (
    <form onSubmit={handleSubmit((values) => confirm.mutate(values.otp.trim()))} noValidate aria-label={t('mfa.enrol.confirm')}>
      <Stack gap="md">
        <Text fz="sm">{t('mfa.enrol.confirmIntro')}</Text>
        <MfaError title={t('mfa.enrol.failed')} error={confirm.error} />
        <CodeField
          label={t('mfa.totp.codeLabel')}
          error={formState.errors.otp?.message ? t(formState.errors.otp.message) : undefined}
          {...register('otp', { validate: (value) => SIX_DIGITS.test(value.trim()) || 'validation.code' })}
        />
        <Button type="submit" fullWidth loading={confirm.isPending}>
          {t('mfa.enrol.confirm')}
        </Button>
        <Button variant="subtle" size="xs" onClick={() => setStage('scan')}>
          {t('mfa.enrol.back')}
        </Button>
      </Stack>
    </form>
  );
}
