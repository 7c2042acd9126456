/**
 * Nothing renders until the instance's flags (meta) and the session are known: a loader first, never a
 * flash of the sign-in form for a person who is signed in (or the reverse). A failure other than "no
 * session" (server unreachable, ...) is shown in plain words with a retry.
 */
import { Button, Stack } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useMeta, useSession } from './api/queries.ts';
import type { Meta, SessionUser } from './api/types.ts';
import { AuthLayout } from './layout/auth-layout.tsx';
import { FormError } from './layout/form-error.tsx';
import { FullPageLoader } from './layout/full-page-loader.tsx';

export function SessionGate({ children }: { children: (state: { meta: Meta; user: SessionUser | null }) => ReactNode }) {
  const { t } = useTranslation();
  const meta = useMeta();
  const session = useSession();
  if (meta.isPending || session.isPending) return <FullPageLoader label={t('common.loading')} />;
  if (meta.isError || session.isError) {
    return (
      <AuthLayout title={t('common.somethingWrong')}>
        <Stack gap="md">
          <FormError title={t('common.sessionCheckFailed')} error={meta.error ?? session.error} />
          <Button
            onClick={() => {
              void meta.refetch();
              void session.refetch();
            }}
          >
            {t('common.tryAgain')}
          </Button>
        </Stack>
      </AuthLayout>
    );
  }
  return <>{children({ meta: meta.data, user: session.data })}</>;
}
