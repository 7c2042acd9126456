/**
 * A passkey as the second factor (docs/operations.md#webauthn_login_options: webauthn_login_options then webauthn_login_verify, with the
 * mfa cookie of the pending sign-in): one button that opens the browser's passkey dialog for this account.
 */
import { Button, Stack, Text } from '@mantine/core';
import { IconFingerprint } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { MfaError } from '../mfa/mfa-error.tsx';
import type { MfaStep } from '../mfa/mfa-step.ts';
import { useSignInAnswer } from '../mfa/use-sign-in-answer.ts';
import { authenticateWithPasskey, wasDismissed } from './ceremonies.ts';

export function PasskeyChallenge({ step }: { step: MfaStep }) {
  const { t } = useTranslation();
  const onAnswer = useSignInAnswer();
  const verify = useMutation({
    mutationFn: () => authenticateWithPasskey({ email: step.who?.email }),
    onSuccess: (answer) => onAnswer(answer, step.who),
  });
  const error = verify.error && !wasDismissed(verify.error) ? verify.error : null;
  return (
    <Stack gap="md">
      <MfaError title={t('mfa.failed')} error={error} />
      <Text fz="sm">{t('mfa.passkey.body')}</Text>
      <Button fullWidth leftSection={<IconFingerprint size={18} />} loading={verify.isPending} onClick={() => verify.mutate()}>
        {t('mfa.passkey.submit')}
      </Button>
    </Stack>
  );
}
