/**
 * Sends a signed-in browser to the application's redirect_uri with its state (round-trip.ts). replace():
 * the Back button then returns to the application's page before sign-in, not to this page, which would
 * send the person straight back again.
 */
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { FullPageLoader } from '../layout/full-page-loader.tsx';

export function LeaveForApplication({ url, host }: { url: string; host: string }) {
  const { t } = useTranslation();
  useEffect(() => {
    window.location.replace(url);
  }, [url]);
  return <FullPageLoader label={t('common.redirecting', { host })} />;
}
