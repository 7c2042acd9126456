/**
 * A client secret as create_client and rotate_client_secret answer it: shown this once (the server keeps a
 * one-way digest only, docs/operations.md), with a copy button and a warning. The secret lives in the
 * dialog's props, never in the query cache or the URL, so it is gone once the dialog closes.
 */
import type { ReactNode } from 'react';
import { Alert, Button, Group, Stack } from '@mantine/core';
import { IconAlertTriangle, IconClock } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { CopyableValue } from '../common/copyable-value.tsx';
import { formatTimestamp } from '../common/format.ts';
import type { IssuedClientSecret } from './api.ts';

/**
 * The body of the dialog that shows a new secret. `rotation`: the answer of a rotation, which says until when
 * the old secret keeps working (absent: the grace window is 0 and the old secret stopped at once).
 */
export function IssuedSecret({ issued, rotation, onDone, extraAction }: {
  issued: IssuedClientSecret;
  rotation?: boolean;
  onDone: () => void;
  extraAction?: ReactNode;
}) {
  const { t } = useTranslation('clients');
  return (
    <Stack gap="md">
      <Alert color="orange" variant="light" icon={<IconAlertTriangle size={18} />} title={t('secret.onceTitle')}>
        {t('secret.onceBody')}
      </Alert>
      <CopyableValue label={t('secret.clientId')} value={issued.client.client_id} testId="issued-client-id" />
      <CopyableValue label={t('secret.secret')} value={issued.client_secret} testId="issued-client-secret" />
      {rotation && (
        <Alert color="blue" variant="light" icon={<IconClock size={18} />}>
          {issued.previous_secret_expires_at
            ? t('secret.graceUntil', { time: formatTimestamp(issued.previous_secret_expires_at) })
            : t('secret.graceNone')}
        </Alert>
      )}
      <Group justify="flex-end" gap="sm">
        {extraAction}
        <Button onClick={onDone} data-autofocus>
          {t('secret.stored')}
        </Button>
      </Group>
    </Stack>
  );
}
