/** Outcome notifications of console actions: the server's own words on failure (every action shows the server's error message). */
import { notifications } from '@mantine/notifications';
import { errorMessage } from '../../../ui-shared/graphql-client.ts';
import i18next from 'i18next';

export function notifySuccess(message: string): void {
  notifications.show({ color: 'teal', title: i18next.t('common.done'), message, withBorder: true });
}

export function notifyError(err: unknown): void {
  // Errors stay until dismissed: a person must be able to read (and copy) the server's message.
  notifications.show({ color: 'red', title: i18next.t('common.failed'), message: errorMessage(err), autoClose: false, withBorder: true });
}
