import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { MantineProvider } from '@mantine/core';
import { ModalsProvider } from '@mantine/modals';
import { Notifications } from '@mantine/notifications';
import { QueryCache, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { ApiError } from '../../ui-shared/graphql-client.ts';
import { cssVariablesResolver, theme } from '../../ui-shared/theme.ts';
import { initI18n } from '../../ui-shared/i18n.ts';
import { resources } from './i18n/index.ts';
import { App } from './app.tsx';
import { queryKeys } from './api/queries.ts';

initI18n(resources);
// A read refused as UNAUTHENTICATED means the admin cookie ended (expiry, sign out in another tab): the session
// query is asked again, and the gate replaces the console with the sign-in form instead of an error per table.
const queryCache = new QueryCache({
  onError: (err, query) => {
    if (err instanceof ApiError && err.code === 'UNAUTHENTICATED' && query.queryKey[0] !== queryKeys.adminSession[0]) {
      void queryClient.invalidateQueries({ queryKey: queryKeys.adminSession });
    }
  },
});
const queryClient = new QueryClient({ queryCache, defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false } } });

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver}>
      <QueryClientProvider client={queryClient}>
        <ModalsProvider>
          <Notifications position="top-right" />
          <App />
        </ModalsProvider>
      </QueryClientProvider>
    </MantineProvider>
  </StrictMode>,
);
