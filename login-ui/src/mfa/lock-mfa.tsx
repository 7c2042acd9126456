/**
 * "I lost my authenticator" (docs/api-overview.md#states-and-transitions lock_mfa; docs/operations.md): for a person whose only second factors
 * are an app or a passkey (no verified email or SMS code to fall back on). It signs nothing in and locks the
 * second factor until an administrator resets it, so it asks first. The pending sign-in proves the password
 * only, and a password alone must not lock the owner out (NIST SP 800-63B 6.1.2.3), so confirming sends a
 * code to the account's proven email address or phone number and the dialog then asks for it; the lock is
 * recorded with that code. The page then says what happens next instead of the code form (LockedNotice),
 * since no code can finish this sign-in any more. An account with nothing proven to send the code to is told
 * so in the server's words (ask an administrator).
 */
import { Anchor, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { lockMfa } from '../api/mfa-operations.ts';
import { Notice } from '../layout/notice.tsx';
import { CodeField, SIX_DIGITS } from './code-field.tsx';
import { MfaError } from './mfa-error.tsx';
import { whoFields, type MfaStep } from './mfa-step.ts';

/** What follows a recorded lock: no sign-in, and who can undo it. */
export function LockedNotice() {
  const { t } = useTranslation();
  return (
    <Notice title={t('mfa.lock.doneTitle')}>
      <Text fz="sm" data-testid="mfa-locked">{t('mfa.lock.doneBody')}</Text>
    </Notice>
  );
}

export function LockMfa({ step, onLocked }: { step: MfaStep; onLocked: () => void }) {
  const { t } = useTranslation();
  const [opened, { open, close }] = useDisclosure(false);
  /** Whether the code was sent: the dialog then asks for it. */
  const [codeSent, setCodeSent] = useState(false);
  const who = whoFields(step.who);
  const send = useMutation({ mutationFn: () => lockMfa(who), onSuccess: () => setCodeSent(true) });
  const busy = send.isPending;
  // A dialog opened again starts over: confirming again sends a new code, which replaces the earlier one.
  const dismiss = () => {
    close();
    setCodeSent(false);
    send.reset();
  };
  return (
    <>
      <Group justify="flex-start">
        <Anchor component="button" type="button" fz="sm" c="dimmed" onClick={open}>
          {t('mfa.lock.link')}
        </Anchor>
      </Group>
      <Modal opened={opened} onClose={dismiss} title={t('mfa.lock.title')} centered closeOnClickOutside={!busy} closeOnEscape={!busy}>
        {codeSent ? (
          <LockCodeForm
            step={step}
            onCancel={dismiss}
            onLocked={() => {
              close();
              onLocked();
            }}
          />
        ) : (
          <Stack gap="md">
            <Text fz="sm">{t('mfa.lock.body')}</Text>
            <MfaError title={t('mfa.lock.failed')} error={send.error} />
            <Group justify="flex-end" gap="sm">
              <Button variant="default" onClick={dismiss} disabled={busy}>
                {t('mfa.lock.cancel')}
              </Button>
              <Button color="red" loading={busy} onClick={() => send.mutate()}>
                {t('mfa.lock.confirm')}
              </Button>
            </Group>
          </Stack>
        )}
      </Modal>
    </>
  );
}

/** The second call: the code sent to the proven address or number confirms the lock. */
function LockCodeForm({ step, onCancel, onLocked }: { step: MfaStep; onCancel: () => void; onLocked: () => void }) {
  const { t } = useTranslation();
  const who = whoFields(step.who);
  const { register, handleSubmit, formState } = useForm<{ otp: string }>({ defaultValues: { otp: '' } });
  const confirm = useMutation({ mutationFn: (otp: string) => lockMfa(who, otp), onSuccess: onLocked });
  const resend = useMutation({ mutationFn: () => lockMfa(who), onMutate: () => confirm.reset() });
  return (
    <form onSubmit={handleSubmit((values) => confirm.mutate(values.otp.trim()))} noValidate aria-label={t('mfa.lock.confirmCode')}>
      <Stack gap="md">
        <Text fz="sm">{t('mfa.lock.codePrompt')}</Text>
        <MfaError title={t('mfa.lock.codeFailed')} error={confirm.error ?? resend.error} />
        {/* The UI's own words: the server's message speaks of "OTP", which means nothing to most people. */}
        {resend.isSuccess ? <Notice title={t('mfa.codeSent')}>{t('mfa.lock.resent')}</Notice> : null}
        <CodeField
          label={t('fields.code')}
          error={formState.errors.otp?.message ? t(formState.errors.otp.message) : undefined}
          {...register('otp', { validate: (value) => SIX_DIGITS.test(value.trim()) || 'validation.code' })}
        />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onCancel} disabled={confirm.isPending}>
            {t('mfa.lock.cancel')}
          </Button>
          <Button type="submit" color="red" loading={confirm.isPending}>
            {t('mfa.lock.confirmCode')}
          </Button>
        </Group>
        <Group justify="flex-start">
          <Anchor component="button" type="button" fz="sm" disabled={resend.isPending || confirm.isPending} onClick={() => resend.mutate()}>
            {t('mfa.resend')}
          </Anchor>
        </Group>
      </Stack>
    </form>
  );
}
