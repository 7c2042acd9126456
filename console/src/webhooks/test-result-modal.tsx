/** The answer of a test send (`_test_endpoint`): the receiver's HTTP status and body, shown as text. */
import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { TestAnswer } from './api.ts';
import { BodyBlock } from './body-block.tsx';
import { HttpStatusBadge } from './http-status-badge.tsx';

export function TestResultModal({ answer, onClose }: { answer: TestAnswer | undefined; onClose: () => void }) {
  const { t } = useTranslation('webhooks');
  return (
    <Modal opened={Boolean(answer)} onClose={onClose} title={t('test.title')} centered size="lg">
      {answer && (
        <Stack gap="md">
          <Text size="sm" c="dimmed">
            {t('test.description')}
          </Text>
          <Group gap="sm">
            <Text size="sm" fw={600}>
              {t('test.status')}
            </Text>
            <HttpStatusBadge status={answer.http_status} />
          </Group>
          <BodyBlock label={t('test.response')} body={answer.response} empty={t('test.emptyResponse')} />
          <Group justify="flex-end">
            <Button onClick={onClose}>{t('translation:common.done')}</Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
