/**
 * Keeps an edited, unsaved model from being lost by a click elsewhere: leaving the page inside the console
 * asks first (React Router's blocker, the console runs a data router), and closing or reloading the tab gets
 * the browser's own prompt (beforeunload).
 */
import { useEffect } from 'react';
import { Text } from '@mantine/core';
import { useBlocker } from 'react-router';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from './confirm-dialog.tsx';

export function UnsavedChangesGuard({ dirty }: { dirty: boolean }) {
  const { t } = useTranslation('fga');
  const blocker = useBlocker(({ currentLocation, nextLocation }) => dirty && currentLocation.pathname !== nextLocation.pathname);

  useEffect(() => {
    if (!dirty) return undefined;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);

  return (
    <ConfirmDialog
      opened={blocker.state === 'blocked'}
      title={t('model.unsavedTitle')}
      confirmLabel={t('model.discardAndLeave')}
      pending={false}
      onConfirm={() => blocker.proceed?.()}
      onClose={() => blocker.reset?.()}
    >
      <Text size="sm">{t('model.unsavedBody')}</Text>
    </ConfirmDialog>
  );
}
