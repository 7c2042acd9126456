/**
 * The device page (/app/device, the verification_uri of RFC 8628 section 3.2): a TV or a command-line tool
 * shows a code and this address. A signed-out visitor signs in first through the normal login (which returns
 * here with the code); a signed-in one types the code (or finds it filled in from verification_uri_complete,
 * section 3.3.1), sees which application asks for what, and approves or denies. The code is checked only by
 * the server, which limits wrong ones; the device then receives its tokens or access_denied when it polls.
 */
import { Button, Stack, Text, TextInput } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import type { SessionUser } from '../api/types.ts';
import { AuthLayout } from '../layout/auth-layout.tsx';
import { FormError } from '../layout/form-error.tsx';
import { DecisionButtons, RequestedScopes, SignedInAs } from '../consent/decision-panel.tsx';
import { decideDeviceRequest, deviceRequest, type DeviceRequest } from './device-api.ts';

/** The code as the device shows it, XXXX-XXXX, with a non-breaking hyphen so it never wraps in two. */
function shownCode(typed: string): string {
  const compact = typed.toUpperCase().replace(/[\s-]+/g, '');
  return compact.length === 8 ? `${compact.slice(0, 4)}\u2011${compact.slice(4)}` : compact;
}

/** This page with the code, so the sign-in round trip brings the person back to it (own origin: always allowed). */
function signInUrl(userCode: string): string {
  const back = new URL('/app/device', window.location.origin);
  if (userCode) back.searchParams.set('user_code', userCode);
  return `/app?redirect_uri=${encodeURIComponent(back.toString())}`;
}

export function DevicePage({ user }: { user: SessionUser | null }) {
  const { t } = useTranslation();
  const [searchParams] = useSearchParams();
  const given = searchParams.get('user_code') ?? '';
  if (!user) {
    return (
      <AuthLayout title={t('device.title')} subtitle={t('device.signInFirst')}>
        <Button component="a" href={signInUrl(given)} fullWidth data-testid="device-sign-in">
          {t('device.signIn')}
        </Button>
      </AuthLayout>
    );
  }
  return <DeviceApproval user={user} given={given} />;
}

function DeviceApproval({ user, given }: { user: SessionUser; given: string }) {
  const { t } = useTranslation();
  const [code, setCode] = useState(given);
  const lookup = useMutation({ mutationFn: (typed: string) => deviceRequest(typed) });
  const decision = useMutation({ mutationFn: (approve: boolean) => decideDeviceRequest(code, approve).then(() => approve) });

  if (decision.isSuccess) {
    return (
      <AuthLayout title={decision.data ? t('device.approvedTitle') : t('device.deniedTitle')}>
        <Text fz="sm" data-testid="device-done">
          {decision.data ? t('device.approvedBody') : t('device.deniedBody')}
        </Text>
      </AuthLayout>
    );
  }
  if (lookup.isSuccess) return <DeviceDecision request={lookup.data} user={user} code={code} decision={decision} />;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (code.trim()) lookup.mutate(code.trim());
  };
  return (
    <AuthLayout title={t('device.title')} subtitle={t('device.enterCode')}>
      <form onSubmit={submit} noValidate aria-label={t('device.continue')}>
        <Stack gap="md">
          <SignedInAs user={user} />
          <FormError title={t('device.lookupFailed')} error={lookup.error} />
          <TextInput
            label={t('device.codeLabel')}
            placeholder="BCDF-GHJK"
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            maxLength={32}
            autoFocus
            withAsterisk
            value={code}
            onChange={(event) => setCode(event.currentTarget.value)}
            styles={{ input: { letterSpacing: '0.2em', textTransform: 'uppercase' } }}
          />
          <Button type="submit" fullWidth loading={lookup.isPending} disabled={!code.trim()}>
            {t('device.continue')}
          </Button>
        </Stack>
      </form>
    </AuthLayout>
  );
}

function DeviceDecision({
  request, user, code, decision,
}: {
  request: DeviceRequest;
  user: SessionUser;
  code: string;
  decision: ReturnType<typeof useMutation<boolean, Error, boolean>>;
}) {
  const { t } = useTranslation();
  const client = request.client_name;
  const busy = decision.isPending;
  return (
    <AuthLayout title={t('device.askTitle', { client })} subtitle={t('device.askSubtitle', { code: shownCode(code) })}>
      <Stack gap="lg" data-testid="device-request">
        <SignedInAs user={user} />
        <RequestedScopes client={client} scopes={request.scopes} testId="device-scopes" />
        <Text fz="xs" c="dimmed">
          {t('device.onlyYours')}
        </Text>
        <FormError title={t('consent.decideFailed')} error={decision.error} />
        <DecisionButtons busy={busy} chosen={decision.variables} onDecide={(approve) => decision.mutate(approve)} />
      </Stack>
    </AuthLayout>
  );
}
