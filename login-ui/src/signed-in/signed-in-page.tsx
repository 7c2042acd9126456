/**
 * Who is signed in, and sign out (docs/operations.md#logout: the session, its cookies and tokens stop
 * working at once). Reached directly on /app, after the emailed verification or magic link lands here,
 * or after sign-in without an application to return to.
 */
import { Avatar, Badge, Button, Group, Paper, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { IconLogout, IconShieldLock } from '@tabler/icons-react';
import { Link } from 'react-router';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../ui-shared/graphql-client.ts';
import { logout } from '../api/operations.ts';
import { ConnectedApps } from '../consent/connected-apps.tsx';
import { setSignedOut } from '../api/queries.ts';
import type { SessionUser } from '../api/types.ts';
import { withRoundTrip } from '../layout/app-link.tsx';
import { AuthLayout, organizationName } from '../layout/auth-layout.tsx';
import { FormError } from '../layout/form-error.tsx';

function displayName(user: SessionUser): string {
  const full = [user.given_name, user.family_name].filter(Boolean).join(' ');
  return full || user.nickname || user.email || user.phone_number || user.id;
}

function initials(name: string): string {
  const letters = name.split(/[\s@.+]+/).filter(Boolean).slice(0, 2).map((part) => part[0]!.toUpperCase());
  return letters.join('') || '?';
}

/** Long addresses wrap instead of being cut off: the person must see all of who they are signed in as. */
const WRAP_ANYWHERE = { overflowWrap: 'anywhere' } as const;

function ContactRow({ label, value, badge, testId }: { label: string; value: string; badge: ReactNode; testId: string }) {
  return (
    <Paper withBorder radius="md" px="md" py="sm" bg="gray.0">
      <Text fz="xs" c="dimmed" fw={600} tt="uppercase" lts={0.4}>
        {label}
      </Text>
      <Group gap="xs" wrap="wrap" align="center">
        <Text fz="sm" style={WRAP_ANYWHERE} data-testid={testId}>
          {value}
        </Text>
        {badge}
      </Group>
    </Paper>
  );
}

/** A session that already ended (expired, revoked elsewhere) is what signing out wants: not an error. */
async function logoutUnlessGone(): Promise<void> {
  try {
    await logout();
  } catch (err) {
    if (!(err instanceof ApiError && err.code === 'UNAUTHENTICATED')) throw err;
  }
}

export function SignedInPage({ user }: { user: SessionUser }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const signOut = useMutation({ mutationFn: logoutUnlessGone, onSuccess: () => setSignedOut(client) });
  const name = displayName(user);
  const verification = (verified: boolean) => (
    <Badge size="sm" variant="light" color={verified ? 'teal' : 'gray'} style={{ flexShrink: 0 }}>
      {verified ? t('signedIn.verified') : t('signedIn.unverified')}
    </Badge>
  );
  return (
    <AuthLayout title={t('signedIn.title')}>
      <Stack gap="lg" data-testid="signed-in">
        <Group gap="md" wrap="nowrap">
          <Avatar size="lg" radius="xl" color="portcullis" aria-hidden>
            {initials(name)}
          </Avatar>
          <Stack gap={0} miw={0}>
            <Text fz="sm" c="dimmed">
              {t('signedIn.subtitle', { organization: organizationName })}
            </Text>
            <Text fw={600} style={WRAP_ANYWHERE} data-testid="signed-in-name">
              {name}
            </Text>
          </Stack>
        </Group>
        <Stack gap="sm">
          {user.email ? (
            <ContactRow label={t('signedIn.email')} value={user.email} badge={verification(user.email_verified)} testId="signed-in-email" />
          ) : null}
          {user.phone_number ? (
            <ContactRow label={t('signedIn.phone')} value={user.phone_number} badge={verification(user.phone_number_verified)} testId="signed-in-phone" />
          ) : null}
        </Stack>
        <Button component={Link} to={withRoundTrip('/security')} variant="light" leftSection={<IconShieldLock size={18} />}>
          {t('signedIn.security')}
        </Button>
        <ConnectedApps />
        <FormError title={t('signedIn.logoutFailed')} error={signOut.error} />
        <Button variant="default" leftSection={<IconLogout size={18} />} loading={signOut.isPending} onClick={() => signOut.mutate()}>
          {t('signedIn.logout')}
        </Button>
      </Stack>
    </AuthLayout>
  );
}
