/** One OAuth client: how to connect, its settings, credentials (rotation), trusted issuers, device sign-in, back-channel logout, activation and deletion. */
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { PageHeader } from '../common/page-header.tsx';
import { RecordPage } from '../common/record-page.tsx';
import { useClient } from './api.ts';
import { ClientAccessCard } from './client-access-card.tsx';
import { ClientConnectCard } from './client-connect-card.tsx';
import { ClientCredentialsCard } from './client-credentials-card.tsx';
import { ClientSettingsCard } from './client-settings-card.tsx';
import { ClientStatusBadge } from './client-status-badge.tsx';
import { TrustedIssuersCard } from '../trusted-issuers/trusted-issuers-card.tsx';
import { DeviceGrantCard } from '../device-grant/device-grant-card.tsx';
import { BackchannelLogoutCard } from '../backchannel-logout/backchannel-logout-card.tsx';

export function ClientPage() {
  const { t } = useTranslation('clients');
  const { clientId = '' } = useParams();
  const clientQuery = useClient(clientId);

  return (
    <RecordPage backTo="/clients" backLabel={t('back')} query={clientQuery} loadingHeights={[320, 160]}>
      {(client) => (
        <>
          <PageHeader title={client.name} description={client.description || undefined} actions={<ClientStatusBadge client={client} />} />
          <ClientConnectCard client={client} />
          <ClientSettingsCard client={client} />
          <ClientCredentialsCard client={client} />
          <TrustedIssuersCard clientId={client.client_id} />
          <DeviceGrantCard clientId={client.client_id} />
          <BackchannelLogoutCard clientId={client.client_id} />
          <ClientAccessCard client={client} />
        </>
      )}
    </RecordPage>
  );
}
