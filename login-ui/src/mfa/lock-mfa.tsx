/**
 * "I lost my authenticator" (specification part 3 lock_mfa; part 4.1): for a person whose only second factors
 * are an app or a passkey (no verified email or SMS code to fall back on). It signs nothing in and locks the
 * second factor until an administrator resets it, so it asks first; the page then says what happens next
 * instead of the code form (LockedNotice), since no code can finish this sign-in any more.
 */
import { Anchor, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { lockMfa } from '../api/mfa-operations.ts';
import { Notice } from '../layout/notice.tsx';
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
  const lock = useMutation({
    mutationFn: () => lockMfa(whoFields(step.who)),
    onSuccess: () => {
      close();
      onLocked();
    },
  });
  return (
    <>
      <Group justify="flex-start">
        <Anchor component="button" type="button" fz="sm" c="dimmed" onClick={open}>
          {t('mfa.lock.link')}
        </Anchor>
      </Group>
      <Modal opened={opened} onClose={close} title={t('mfa.lock.title')} centered closeOnClickOutside={!lock.isPending}>
        <Stack gap="md">
          <Text fz="sm">{t('mfa.lock.body')}</Text>
          <MfaError title={t('mfa.lock.failed')} error={lock.error} />
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={close} disabled={lock.isPending}>
              {t('mfa.lock.cancel')}
            </Button>
            <Button color="red" loading={lock.isPending} onClick={() => lock.mutate()}>
              {t('mfa.lock.confirm')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
