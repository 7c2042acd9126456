/**
 * The client page's switch for the device authorization grant (RFC 8628): off by default; on lets the client
 * call /oauth/device_authorization and poll the token endpoint with the device_code grant.
 */
import { Skeleton, Switch } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useAdminMutation } from '../common/use-admin-mutation.ts';
import { SectionCard } from '../users/section-card.tsx';
import { deviceGrantKeys, setClientDeviceGrant, useClientDeviceGrant } from './api.ts';

export function DeviceGrantCard({ clientId }: { clientId: string }) {
  const { t } = useTranslation('deviceGrant');
  const queryClient = useQueryClient();
  const grant = useClientDeviceGrant(clientId);
  const toggle = useAdminMutation({
    mutationFn: (enabled: boolean) => setClientDeviceGrant(clientId, enabled),
    invalidates: [],
    successMessage: (saved) => (saved.enabled ? t('enabled') : t('disabled')),
    onSuccess: (saved) => queryClient.setQueryData(deviceGrantKeys.one(clientId), saved),
  });
  return (
    <SectionCard title={t('title')}>
      {grant.data ? (
        <Switch
          data-testid="device-grant-switch"
          label={t('label')}
          description={t('hint')}
          checked={grant.data.enabled}
          disabled={toggle.isPending}
          onChange={(event) => toggle.mutate(event.currentTarget.checked)}
        />
      ) : (
        <Skeleton height={48} />
      )}
    </SectionCard>
  );
}
