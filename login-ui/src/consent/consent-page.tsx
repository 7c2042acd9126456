/**
 * The consent screen (/app/consent?request=<id>): the authorization endpoint sends a signed-in person here
 * when a client that must ask (consent_required) wants access they have not granted yet. It names the client
 * and where it will send them back, lists what it asks for in plain words, and sends the decision; the
 * browser then follows the URL the server answers (the authorization endpoint again, or the client's
 * redirect with error=access_denied: RFC 6749 section 4.1.2.1). The request is bound to the session on the
 * server, so this page holds nothing but its id.
 */
import { Stack, Text } from '@mantine/core';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import type { SessionUser } from '../api/types.ts';
import { AuthLayout } from '../layout/auth-layout.tsx';
import { FormError } from '../layout/form-error.tsx';
import { FullPageLoader } from '../layout/full-page-loader.tsx';
import { authorizationRequest, decideAuthorizationRequest } from './consent-api.ts';
import { DecisionButtons, RequestedScopes, SignedInAs } from './decision-panel.tsx';

/** Only a web address is followed (never javascript: or data:), even though the server wrote it. */
function isWebUrl(value: string): boolean {
  try {
    const url = new URL(value, window.location.origin);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
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
        <SignedInAs user={user} />
        <RequestedScopes client={client} scopes={request.data.scopes} testId="consent-scopes" />
        <Text fz="xs" c="dimmed">
          {t('consent.withdrawHint')}
        </Text>
        <FormError title={t('consent.decideFailed')} error={decision.error} />
        <DecisionButtons busy={busy} chosen={decision.variables} onDecide={(approve) => decision.mutate(approve)} />
      </Stack>
    </AuthLayout>
  );
}
