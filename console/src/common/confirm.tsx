/** Destructive actions ask first, in a Mantine confirmation modal with a red confirm button. */
import type { ReactNode } from 'react';
import { modals } from '@mantine/modals';
import i18next from 'i18next';
import { ActionIcon, Button, Text, Tooltip, type ButtonProps } from '@mantine/core';

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

/** A button whose action asks first: `onConfirm` runs only once the admin confirms in the dialog. */
export function ConfirmButton({ confirmTitle, confirmBody, confirmLabel, onConfirm, children, ...button }: ButtonProps & {
  confirmTitle: string;
  confirmBody: string;
  confirmLabel: string;
  onConfirm: () => void;
  children: ReactNode;
}) {
  return (
    <Button {...button} onClick={() => confirmDestructive({ title: confirmTitle, body: confirmBody, confirmLabel, onConfirm })}>
      {children}
    </Button>
  );
}

/**
 * A red icon button of a table row whose action asks first; `label` is its tooltip and its accessible name
 * (an icon alone tells a screen reader nothing).
 */
export function ConfirmActionIcon({ label, confirmTitle, confirmBody, confirmLabel, onConfirm, loading, children }: {
  label: string;
  confirmTitle: string;
  confirmBody: string;
  confirmLabel: string;
  onConfirm: () => void;
  loading?: boolean;
  children: ReactNode;
}) {
  return (
    <Tooltip label={label} withArrow>
      <ActionIcon
        variant="subtle"
        color="red"
        loading={loading}
        aria-label={label}
        onClick={() => confirmDestructive({ title: confirmTitle, body: confirmBody, confirmLabel, onConfirm })}
      >
        {children}
      </ActionIcon>
    </Tooltip>
  );
}
