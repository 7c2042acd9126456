/**
 * After a factor is added or removed the signed-in person's record changed (enrolled_mfa_methods): read it
 * again (profile) and keep it as the session's user, so every screen shows the new state.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { profile } from '../api/mfa-operations.ts';
import { setSignedIn } from '../api/queries.ts';

export function useRefreshUser(): () => Promise<void> {
  const client = useQueryClient();
  return useCallback(async () => {
    setSignedIn(client, await profile());
  }, [client]);
}
