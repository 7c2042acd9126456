/**
 * One webhook: its settings and extra headers, the enabled switch, a test send (`_test_endpoint` with its
 * endpoint, event and headers), editing, deletion after a confirmation, and its delivery log.
 */
import { useState } from 'react';
import { Button, Code, Group, Stack, Text } from '@mantine/core';
import { IconPencil, IconSend, IconTrash } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { DetailRow, DetailTable } from '../common/detail-table.tsx';
import { PageHeader } from '../common/page-header.tsx';
import { RecordPage } from '../common/record-page.tsx';
import { ConfirmButton } from '../common/confirm.tsx';
import { formatTimestamp } from '../common/format.ts';
import { useAdminMutation } from '../common/use-admin-mutation.ts';
import { SectionCard } from '../users/section-card.tsx';
import { deleteWebhook, testEndpoint, useWebhook, webhookKeys, type TestAnswer, type Webhook } from './api.ts';
import { DeliveryLog } from './delivery-log.tsx';
import { TestResultModal } from './test-result-modal.tsx';
import { WebhookEnabledSwitch } from './webhook-enabled-switch.tsx';
import { WebhookFormModal } from './webhook-form-modal.tsx';

function SettingsCard({ webhook }: { webhook: Webhook }) {
  const { t } = useTranslation('webhooks');
  const headers = Object.entries(webhook.headers ?? {});
  return (
    <SectionCard title={t('detail.settings')} actions={<WebhookEnabledSwitch webhook={webhook} withLabel />}>
      <DetailTable>
        <DetailRow label={t('fields.event')}>
          <Code>{webhook.event_name}</Code>
        </DetailRow>
        <DetailRow label={t('fields.description')}>{webhook.event_description}</DetailRow>
        <DetailRow label={t('fields.endpoint')}>
          <Code style={{ wordBreak: 'break-all' }}>{webhook.endpoint}</Code>
        </DetailRow>
        <DetailRow label={t('detail.headers')}>
          {headers.length === 0 ? (
            <Text size="sm" c="dimmed">
              {t('fields.noHeaders')}
            </Text>
          ) : (
            <Stack gap={4} align="flex-start">
              {headers.map(([name, value]) => (
                <Code key={name} style={{ wordBreak: 'break-all' }}>{`${name}: ${value}`}</Code>
              ))}
            </Stack>
          )}
        </DetailRow>
        <DetailRow label={t('detail.created')}>{formatTimestamp(webhook.created_at)}</DetailRow>
        <DetailRow label={t('detail.updated')}>{formatTimestamp(webhook.updated_at)}</DetailRow>
        <DetailRow label={t('detail.id')}>
          <Code>{webhook.id}</Code>
        </DetailRow>
      </DetailTable>
    </SectionCard>
  );
}

function Actions({ webhook, onEdit }: { webhook: Webhook; onEdit: () => void }) {
  const { t } = useTranslation('webhooks');
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [answer, setAnswer] = useState<TestAnswer | undefined>();
  const test = useAdminMutation({
    mutationFn: () => testEndpoint({ endpoint: webhook.endpoint, event_name: webhook.event_name, headers: webhook.headers }),
    invalidates: [],
    successMessage: () => undefined,
    onSuccess: setAnswer,
  });
  const remove = useAdminMutation({
    mutationFn: () => deleteWebhook(webhook.id),
    invalidates: [webhookKeys.lists()],
    onSuccess: () => {
      queryClient.removeQueries({ queryKey: webhookKeys.one(webhook.id) });
      void navigate('/webhooks', { replace: true });
    },
  });
  return (
    <Group gap="sm">
      <Button variant="light" leftSection={<IconSend size={16} />} loading={test.isPending} onClick={() => test.mutate(undefined)}>
        {t('test.send')}
      </Button>
      <Button variant="default" leftSection={<IconPencil size={16} />} onClick={onEdit}>
        {t('edit')}
      </Button>
      <ConfirmButton
        color="red"
        variant="light"
        leftSection={<IconTrash size={16} />}
        loading={remove.isPending}
        confirmTitle={t('remove.confirmTitle')}
        confirmBody={t('remove.confirmBody', { event: webhook.event_name, endpoint: webhook.endpoint })}
        confirmLabel={t('remove.confirm')}
        onConfirm={() => remove.mutate(undefined)}
      >
        {t('remove.button')}
      </ConfirmButton>
      <TestResultModal answer={answer} onClose={() => setAnswer(undefined)} />
    </Group>
  );
}

export function WebhookPage() {
  const { t } = useTranslation('webhooks');
  const { webhookId = '' } = useParams();
  const webhookQuery = useWebhook(webhookId);
  const [editing, setEditing] = useState(false);

  return (
    <RecordPage backTo="/webhooks" backLabel={t('back')} query={webhookQuery} loadingHeights={[240]}>
      {(webhook) => (
        <>
          <PageHeader title={webhook.event_name} description={webhook.endpoint} actions={<Actions webhook={webhook} onEdit={() => setEditing(true)} />} />
          <SettingsCard webhook={webhook} />
          <DeliveryLog webhookId={webhook.id} />
          <WebhookFormModal opened={editing} editing={webhook} onClose={() => setEditing(false)} />
        </>
      )}
    </RecordPage>
  );
}
