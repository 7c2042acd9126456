/**
 * How an application connects with this client: the issuer and the discovery URL (OpenID Connect Discovery
 * 1.0 section 4: `<issuer>/.well-known/openid-configuration`) and the client ID, each ready to copy. The issuer
 * is the one the server publishes in its discovery document (built from --url), not this page's address,
 * which may be another name of the same server.
 */
import { Skeleton, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { CopyableValue } from '../common/copyable-value.tsx';
import { QueryError } from '../common/query-error.tsx';
import { SectionCard } from '../users/section-card.tsx';
import type { OAuthClient } from './api.ts';

const DISCOVERY_PATH = '/.well-known/openid-configuration';

/** The server's discovery document, read from the console's own origin (where /graphql is too). */
function useIssuer() {
  return useQuery({
    queryKey: ['openid-configuration'],
    queryFn: async ({ signal }) => {
      const res = await fetch(DISCOVERY_PATH, { signal, headers: { accept: 'application/json' } });
      if (!res.ok) throw new Error(`${DISCOVERY_PATH} answered HTTP ${res.status}`);
      const document = (await res.json()) as { issuer?: unknown };
      if (typeof document.issuer !== 'string' || !document.issuer) throw new Error(`${DISCOVERY_PATH} names no issuer`);
      return document.issuer;
    },
    staleTime: Infinity,
  });
}

export function ClientConnectCard({ client }: { client: OAuthClient }) {
  const { t } = useTranslation('clients');
  const issuer = useIssuer();
  return (
    <SectionCard title={t('connect.title')} description={t('connect.description')}>
      <Stack gap="md">
        {issuer.isPending ? (
          <Skeleton height={96} radius="sm" />
        ) : issuer.isError ? (
          <QueryError error={issuer.error} onRetry={() => void issuer.refetch()} />
        ) : (
          <>
            <CopyableValue label={t('connect.issuer')} value={issuer.data} testId="connect-issuer" />
            <CopyableValue label={t('connect.discovery')} value={`${issuer.data.replace(/\/+$/, '')}${DISCOVERY_PATH}`} testId="connect-discovery" />
          </>
        )}
        <CopyableValue label={t('connect.clientId')} value={client.client_id} testId="connect-client-id" />
        <Text size="sm" c="dimmed">
          {t('connect.secretHint')}
        </Text>
      </Stack>
    </SectionCard>
  );
}
