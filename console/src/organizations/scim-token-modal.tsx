/**
 * A SCIM bearer token as create and rotate answer it: shown this once (the server keeps a digest only,
 * docs/api-overview.md#authentication, "One-time secrets"), with the base URL, copy buttons and a warning. The token lives
 * in this dialog's props, never in the query cache or the URL; while it is on screen the dialog closes only
 * by its button, so a stray click or Escape does not lose it before it was copied.
 */
import { Alert, Button, Group, Modal, Stack } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { CopyableValue } from '../common/copyable-value.tsx';
import type { IssuedScimToken } from './scim-api.ts';

export function ScimTokenModal({ issued, onDone }: { issued: IssuedScimToken | undefined; onDone: () => void }) {
  const { t } = useTranslation('organizations');
  return (
    <Modal
      opened={Boolean(issued)}
      onClose={onDone}
      title={t('scim.tokenTitle')}
      centered
      size="lg"
      closeOnClickOutside={false}
      closeOnEscape={false}
      withCloseButton={false}
    >
      {issued && (
        <Stack gap="md">
          <Alert color="orange" variant="light" icon={<IconAlertTriangle size={18} />} title={t('scim.onceTitle')}>
            {t('scim.onceBody')}
          </Alert>
          <CopyableValue label={t('scim.baseUrl')} value={issued.scim_endpoint.base_url} />
          <CopyableValue label={t('scim.token')} value={issued.token} testId="scim-token" />
          <Group justify="flex-end">
            <Button onClick={onDone} data-autofocus>
              {t('scim.stored')}
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
