/**
 * A destructive action asks first (Mantine Modal): the question, what will happen, and a red confirm button;
 * the server's refusal is shown inside the dialog, which stays open so the person can read it.
 */
import type { ReactNode } from 'react';
import { Alert, Button, Group, Modal, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';

export interface ConfirmDialogProps {
  opened: boolean;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  pending: boolean;
  /** The server's message when the action failed. */
  error?: string;
  onConfirm: () => void;
  onClose: () => void;
}

export function ConfirmDialog({ opened, title, children, confirmLabel, pending, error, onConfirm, onClose }: ConfirmDialogProps) {
  const { t } = useTranslation('fga');
  return (
    <Modal opened={opened} onClose={onClose} title={title} centered closeOnClickOutside={!pending}>
      <Stack gap="md">
        {children}
        {error ? <Alert color="red" role="alert">{error}</Alert> : null}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose} disabled={pending}>
            {t('cancel')}
          </Button>
          <Button color="red" onClick={onConfirm} loading={pending} data-autofocus>
            {confirmLabel}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
