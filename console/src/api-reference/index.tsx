/**
 * The API reference route, fetched when it opens: the console's first load need not carry it.
 */
import { lazy, Suspense } from 'react';
import { Skeleton } from '@mantine/core';
import { useTranslation } from 'react-i18next';

const ApiReferencePage = lazy(() => import('./api-reference-page.tsx').then((module) => ({ default: module.ApiReferencePage })));

export function ApiReferenceRoute() {
  const { t } = useTranslation('apiReference');
  return (
    <Suspense fallback={<Skeleton height={420} radius="md" aria-label={t('loading')} />}>
      <ApiReferencePage />
    </Suspense>
  );
}
