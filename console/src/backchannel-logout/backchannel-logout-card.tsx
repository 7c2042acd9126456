/**
 * The client page's back-channel logout registration (OpenID Connect Back-Channel Logout 1.0 §2.2): the URI the
 * logout token is POSTed to and whether the client needs sid; an empty URI removes it. The server checks the
 * URI (https, no fragment, the outbound address policy) and answers why it refuses one.
 */
import { useEffect, useState } from 'react';
import { Button, Group, Skeleton, Stack, Switch, TextInput } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useAdminMutation } from '../common/use-admin-mutation.ts';
import { SectionCard } from '../users/section-card.tsx';
import { backchannelKeys, setClientBackchannelLogout, useClientBackchannelLogout } from './api.ts';

export function BackchannelLogoutCard({ clientId }: { clientId: string }) {
  const { t } = useTranslation('backchannel');
  const queryClient = useQueryClient();
  const registration = useClientBackchannelLogout(clientId);
  const [uri, setUri] = useState('');
  const [sessionRequired, setSessionRequired] = useState(false);
  useEffect(() => {
    if (!registration.data) return;
    setUri(registration.data.backchannel_logout_uri);
    setSessionRequired(registration.data.backchannel_logout_session_required);
  }, [registration.data]);
  const save = useAdminMutation({
    mutationFn: () => setClientBackchannelLogout(clientId, uri.trim(), sessionRequired),
    invalidates: [],
    successMessage: (saved) => (saved.backchannel_logout_uri ? t('saved') : t('removed')),
    onSuccess: (saved) => queryClient.setQueryData(backchannelKeys.one(clientId), saved),
  });
  return (
    <SectionCard title={t('title')}>
      {registration.data ? (
        <Stack gap="sm">
          <TextInput
            data-testid="backchannel-logout-uri"
            label={t('uri')}
            description={t('uriHint')}
            placeholder="https://app.example.com/backchannel-logout"
            value={uri}
            onChange={(event) => setUri(event.currentTarget.value)}
          />
          <Switch
            data-testid="backchannel-logout-session-required"
            label={t('sessionRequired')}
            checked={sessionRequired}
            onChange={(event) => setSessionRequired(event.currentTarget.checked)}
          />
          <Group justify="flex-end">
            <Button data-testid="backchannel-logout-save" loading={save.isPending} onClick={() => save.mutate(undefined)}>
              {t('save')}
            </Button>
          </Group>
        </Stack>
      ) : (
        <Skeleton height={96} />
      )}
    </SectionCard>
  );
}
