/**
 * Who is signed in, and sign out (specification part 4.1 logout: the session, its cookies and tokens stop
 * working at once). Reached directly on /app, after the emailed verification or magic link lands here,
 * or after sign-in without an application to return to.
 */
import { Avatar, Badge, Button, Group, Stack, Table, Text } from '@mantine/core';
import { IconLogout } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../ui-shared/graphql-client.ts';
import { logout } from '../api/operations.ts';
import { setSignedOut } from '../api/queries.ts';
import type { SessionUser } from '../api/types.ts';
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
    <Badge size="sm" variant="light" color={verified ? 'teal' : 'gray'}>
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
            <Text fw={600} truncate="end" data-testid="signed-in-name">
              {name}
            </Text>
          </Stack>
        </Group>
        <Table variant="vertical" layout="fixed" withTableBorder fz="sm">
          <Table.Tbody>
            {user.email ? (
              <Table.Tr>
                <Table.Th w={120}>{t('signedIn.email')}</Table.Th>
                <Table.Td>
                  <Group gap="xs" wrap="wrap">
                    <Text fz="sm" truncate="end" maw="100%" data-testid="signed-in-email">
                      {user.email}
                    </Text>
                    {verification(user.email_verified)}
                  </Group>
                </Table.Td>
              </Table.Tr>
            ) : null}
            {user.phone_number ? (
              <Table.Tr>
                <Table.Th w={120}>{t('signedIn.phone')}</Table.Th>
                <Table.Td>
                  <Group gap="xs" wrap="wrap">
                    <Text fz="sm" data-testid="signed-in-phone">
                      {user.phone_number}
                    </Text>
                    {verification(user.phone_number_verified)}
                  </Group>
                </Table.Td>
              </Table.Tr>
            ) : null}
          </Table.Tbody>
        </Table>
        <FormError title={t('signedIn.logoutFailed')} error={signOut.error} />
        <Button variant="default" leftSection={<IconLogout size={18} />} loading={signOut.isPending} onClick={() => signOut.mutate()}>
          {t('signedIn.logout')}
        </Button>
      </Stack>
    </AuthLayout>
  );
}
