/**
 * Server state of the login UI (TanStack Query): the instance's feature flags (`meta`) and the current
 * session. The session query answers null when there is none (UNAUTHENTICATED), so screens can tell
 * "signed out" from "not known yet" and show a loader until it settles (no flash of the wrong screen).
 */
import { useQuery, type QueryClient } from '@tanstack/react-query';
import { ApiError } from '../../../ui-shared/graphql-client.ts';
import { call } from '../../../ui-shared/contract/public-call.ts';
import type { SessionUser } from './types.ts';

export const SESSION_KEY = ['session'] as const;
export const META_KEY = ['meta'] as const;

export function useMeta() {
  return useQuery({
    queryKey: META_KEY,
    queryFn: ({ signal }) => call('meta', {}, signal),
    staleTime: Infinity,
  });
}

/**
 * The `session` query refreshes the session from its cookie (the SDK's getSession). It is asked once per
 * page load; sign-in and sign-out screens write the answer themselves (setSignedIn / setSignedOut).
 */
export function useSession() {
  return useQuery({
    queryKey: SESSION_KEY,
    queryFn: async ({ signal }): Promise<SessionUser | null> => {
      try {
        return (await call('session', {}, signal)).user ?? null;
      } catch (err) {
        if (err instanceof ApiError && err.code === 'UNAUTHENTICATED') return null;
        throw err;
      }
    },
    staleTime: Infinity,
  });
}

export function setSignedIn(client: QueryClient, user: SessionUser): void {
  client.setQueryData(SESSION_KEY, user);
}

export function setSignedOut(client: QueryClient): void {
  client.setQueryData(SESSION_KEY, null);
}
