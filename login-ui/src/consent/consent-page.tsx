/**
 * The consent screen (/app/consent?request=<id>): the authorization endpoint sends a signed-in person here
 * when a client that must ask (consent_required) wants access they have not granted yet. It names the client
 * and where it will send them back, lists what it asks for in plain words, and sends the decision; the
 * browser then follows the URL the server answers (the authorization endpoint again, or the client's
 * redirect with error=access_denied: RFC 6749 section 4.1.2.1). The request is bound to the session on the
 * server, so this page holds nothing but its id.
 */
import { Button, Group, List, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconCheck } from '@tabler/icons-react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import type { SessionUser } from '../api/types.ts';
import { AuthLayout } from '../layout/auth-layout.tsx';
import { FormError } from '../layout/form-error.tsx';
import { FullPageLoader } from '../layout/full-page-loader.tsx';
import { authorizationRequest, decideAuthorizationRequest } from './consent-api.ts';
import { orderedScopes, scopeWords } from './scope-words.ts';

/** Only a web address is followed (never javascript: or data:), even though the server wrote it. */
function isWebUrl(value: string): boolean {
  try {
    const url = new URL(value, window.location.origin);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
}

function signedInAs(user: SessionUser): string {
  return user.email || user.phone_number || user.id;
}

/** A request that cannot be shown: no id in the link, or no session to decide with. */
function Unavailable({ body }: { body: string }) {
  const { t } = useTranslation();
  return (
    <AuthLayout title={t('consent.unavailableTitle')}>
      <Text fz="sm" data-testid="consent-unavailable">
        {body}
      </Text>
    </AuthLayout>
  );
}

export function ConsentPage({ user }: { user: SessionUser | null }) {
  const { t } = useTranslation();
  const [searchParams] = useSearchParams();
  const requestId = searchParams.get('request') ?? '';
  if (!requestId) return <Unavailable body={t('consent.missingRequest')} />;
  if (!user) return <Unavailable body={t('consent.signedOut')} />;
  return <ConsentRequest requestId={requestId} user={user} />;
}

function ConsentRequest({ requestId, user }: { requestId: string; user: SessionUser }) {
  const { t } = useTranslation();
  const [leaving, setLeaving] = useState(false);
  const request = useQuery({
    queryKey: ['authorization-request', requestId],
    queryFn: ({ signal }) => authorizationRequest(requestId, signal),
    staleTime: Infinity,
  });
  const decision = useMutation({
    mutationFn: async (approve: boolean) => {
      const url = await decideAuthorizationRequest(requestId, approve);
      if (!isWebUrl(url)) throw new Error(t('consent.badAnswer'));
      return url;
    },
    onSuccess: (url) => {
      // The buttons stay busy while the browser leaves: a second click would decide a used request.
      setLeaving(true);
      window.location.assign(url);
    },
  });

  if (request.isPending) return <FullPageLoader label={t('common.loading')} />;
  if (request.isError) {
    return (
      <AuthLayout title={t('consent.unavailableTitle')}>
        <FormError title={t('consent.loadFailed')} error={request.error} />
      </AuthLayout>
    );
  }

  const { client_name: client, redirect_host: host } = request.data;
  const busy = decision.isPending || leaving;
  return (
    <AuthLayout title={t('consent.title', { client })} subtitle={t('consent.subtitle', { client, host })}>
      <Stack gap="lg" data-testid="consent">
        <Text fz="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
          {t('consent.signedInAs', { who: signedInAs(user) })}
        </Text>
        <Stack gap="xs">
          <Text fz="sm" fw={600}>
            {t('consent.asks', { client })}
          </Text>
          <List
            spacing="xs"
            fz="sm"
            center
            data-testid="consent-scopes"
            icon={
              <ThemeIcon size={20} radius="xl" variant="light" aria-hidden>
                <IconCheck size={14} />
              </ThemeIcon>
            }
          >
            {orderedScopes(request.data.scopes).map((scope) => (
              <List.Item key={scope} data-scope={scope}>
                {scopeWords(scope, t)}
              </List.Item>
            ))}
          </List>
        </Stack>
        <Text fz="xs" c="dimmed">
          {t('consent.withdrawHint')}
        </Text>
        <FormError title={t('consent.decideFailed')} error={decision.error} />
        <Group grow gap="sm" wrap="wrap-reverse">
          <Button
            variant="default"
            disabled={busy && decision.variables !== false}
            loading={busy && decision.variables === false}
            onClick={() => decision.mutate(false)}
          >
            {t('consent.deny')}
          </Button>
          <Button
            disabled={busy && decision.variables !== true}
            loading={busy && decision.variables === true}
            onClick={() => decision.mutate(true)}
          >
            {t('consent.allow')}
          </Button>
        </Group>
      </Stack>
    </AuthLayout>
  );
}
