/**
 * A client's credentials: its public client_id, its secret (never readable again: only create and rotate
 * answer one), and rotation (`_rotate_client_secret`) after a confirmation. The new secret is shown once in
 * a dialog that says until when the old one keeps working (docs/api-overview.md#states-and-transitions: grace window).
 */
import type { ReactNode } from 'react';
import { useState } from 'react';
import { Code, Modal, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ConfirmButton } from '../common/confirm.tsx';
import { formatTimestamp } from '../common/format.ts';
import { useAdminMutation } from '../common/use-admin-mutation.ts';
import { SectionCard } from '../users/section-card.tsx';
import { clientKeys, rotateClientSecret, type IssuedClientSecret, type OAuthClient } from './api.ts';
import { IssuedSecret } from './issued-secret.tsx';

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack gap={2}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <div>{children}</div>
    </Stack>
  );
}

export function ClientCredentialsCard({ client }: { client: OAuthClient }) {
  const { t } = useTranslation('clients');
  const queryClient = useQueryClient();
  const [issued, setIssued] = useState<IssuedClientSecret | undefined>();
  const rotate = useAdminMutation({
    mutationFn: () => rotateClientSecret(client.id),
    invalidates: [clientKeys.lists()],
    successMessage: () => undefined,
    onSuccess: (answer) => {
      // Only the public part goes to the cache; the secret stays in this dialog's state.
      queryClient.setQueryData(clientKeys.one(client.id), answer.client);
      setIssued(answer);
    },
  });
  const closeSecret = () => {
    setIssued(undefined);
    rotate.reset();
  };

  return (
    <SectionCard
      title={t('credentials.title')}
      description={t('credentials.description')}
      actions={
        <ConfirmButton
          variant="light"
          leftSection={<IconRefresh size={16} />}
          loading={rotate.isPending}
          confirmTitle={t('credentials.rotateConfirmTitle')}
          confirmBody={t('credentials.rotateConfirmBody')}
          confirmLabel={t('credentials.rotate')}
          onConfirm={() => rotate.mutate(undefined)}
        >
          {t('credentials.rotate')}
        </ConfirmButton>
      }
    >
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg">
        <Field label={t('secret.clientId')}>
          <Code style={{ wordBreak: 'break-all' }}>{client.client_id}</Code>
        </Field>
        <Field label={t('secret.secret')}>
          <Text size="sm" c="dimmed">
            {t('credentials.secretHidden')}
          </Text>
        </Field>
        <Field label={t('credentials.created')}>
          <Text size="sm">{formatTimestamp(client.created_at)}</Text>
        </Field>
        <Field label={t('credentials.updated')}>
          <Text size="sm">{formatTimestamp(client.updated_at)}</Text>
        </Field>
        <Field label={t('credentials.id')}>
          <Code style={{ wordBreak: 'break-all' }}>{client.id}</Code>
        </Field>
      </SimpleGrid>
      <Modal
        opened={issued !== undefined}
        onClose={closeSecret}
        title={t('credentials.rotatedTitle')}
        centered
        size="lg"
        closeOnClickOutside={false}
        closeOnEscape={false}
        withCloseButton={false}
      >
        {issued && <IssuedSecret issued={issued} rotation onDone={closeSecret} />}
      </Modal>
    </SectionCard>
  );
}
