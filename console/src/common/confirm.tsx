/** Destructive actions ask first, in a Mantine confirmation modal with a red confirm button. */
import { modals } from '@mantine/modals';
import i18next from 'i18next';
import { Text } from '@mantine/core';

interface ConfirmOptions {
  title: string;
  body: string;
  confirmLabel: string;
  onConfirm: () => void;
}

export function confirmDestructive({ title, body, confirmLabel, onConfirm }: ConfirmOptions): void {
  modals.openConfirmModal({
    title,
    centered: true,
    children: <Text size="sm">{body}</Text>,
    labels: { confirm: confirmLabel, cancel: i18next.t('common.cancel') },
    confirmProps: { color: 'red' },
    onConfirm,
  });
}
