/**
 * Nothing of the console is drawn before the server has answered whether the admin cookie is valid
 * (no flash of unauthenticated content): a loader while `_admin_session` runs, the sign-in form when it says
 * UNAUTHENTICATED, the console only when it succeeds. The cookie itself is HttpOnly and SameSite=Strict
 * (docs/api-overview.md#authentication, "Admin credentials"); nothing about it is kept in script-readable storage.
 */
import type { ReactNode } from 'react';
import { Center, Container, Loader } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useAdminSession } from '../api/queries.ts';
import { QueryError } from '../common/query-error.tsx';
import { SignInPage } from './sign-in-page.tsx';

export function AdminGate({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const session = useAdminSession();
  if (session.isPending) {
    return (
      <Center mih="100vh">
        <Loader aria-label={t('auth.checking')} />
      </Center>
    );
  }
  if (session.isError) {
    return (
      <Container size="sm" py="xl">
        <QueryError error={session.error} onRetry={() => void session.refetch()} />
      </Container>
    );
  }
  return session.data ? children : <SignInPage />;
}
