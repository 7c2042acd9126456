/**
 * The applications the signed-in person has allowed (the consents of the authorization endpoint), each with
 * what it may see and a way to withdraw it: the client must then ask again on its next sign-in. Shown on the
 * signed-in page only when there is at least one, so the page stays as it was for everyone else.
 */
import { Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { FormError } from '../layout/form-error.tsx';
import { consents, revokeConsent, type Consent } from './consent-api.ts';
import { orderedScopes, scopeWords } from './scope-words.ts';

const CONSENTS_KEY = ['consents'] as const;

function ConnectedApp({ consent }: { consent: Consent }) {
  const { t, i18n } = useTranslation();
  const client = useQueryClient();
  const revoke = useMutation({
    mutationFn: () => revokeConsent(consent.client_id),
    onSuccess: () => client.invalidateQueries({ queryKey: CONSENTS_KEY }),
  });
  const date = new Date(consent.created_at * 1000).toLocaleDateString(i18n.language, { dateStyle: 'medium' });
  return (
    <Paper withBorder radius="md" px="md" py="sm" data-testid="connected-app" data-client-id={consent.client_id}>
      <Stack gap={6}>
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
            {consent.client_name}
          </Text>
          <Button
            size="xs"
            variant="subtle"
            color="red"
            loading={revoke.isPending}
            aria-label={t('connectedApps.revokeLabel', { client: consent.client_name })}
            onClick={() => revoke.mutate()}
          >
            {t('connectedApps.revoke')}
          </Button>
        </Group>
        <Text fz="xs" c="dimmed">
          {orderedScopes(consent.scopes).map((scope) => scopeWords(scope, t)).join(' · ')}
        </Text>
        <Text fz="xs" c="dimmed">
          {t('connectedApps.since', { date })}
        </Text>
        <FormError title={t('connectedApps.revokeFailed')} error={revoke.error} />
      </Stack>
    </Paper>
  );
}

export function ConnectedApps() {
  const { t } = useTranslation();
  const list = useQuery({ queryKey: CONSENTS_KEY, queryFn: ({ signal }) => consents(signal) });
  // Nothing while loading: most people have no connected application, and a spinner would flash for them.
  if (list.isPending) return null;
  if (list.isError) return <FormError title={t('connectedApps.failed')} error={list.error} />;
  if (list.data.length === 0) return null;
  return (
    <Stack gap="sm" data-testid="connected-apps">
      <Title order={2} fz="md">
        {t('connectedApps.title')}
      </Title>
      {list.data.map((consent) => (
        <ConnectedApp key={consent.client_id} consent={consent} />
      ))}
    </Stack>
  );
}
