/**
 * Server state of the console (TanStack Query). Tables paginate on the server: each page is its
 * own query, and the previous page stays on screen while the next one loads (no flash of an empty table).
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { ApiError } from '../../../ui-shared/graphql-client.ts';
import { call } from '../../../ui-shared/contract/call.ts';
import type { PageRequest } from './types.ts';

export const queryKeys = {
  adminSession: ['admin-session'] as const,
  adminMeta: ['admin-meta'] as const,
  users: ['users'] as const,
  user: (id: string) => ['user', id] as const,
  userSessions: (id: string) => ['user-sessions', id] as const,
  verificationRequests: ['verification-requests'] as const,
};

/**
 * Whether the admin cookie is valid: true, false when the server says UNAUTHENTICATED, and an error for
 * anything else (the server unreachable), so a network failure is never mistaken for "signed out".
 */
export function useAdminSession() {
  return useQuery({
    queryKey: queryKeys.adminSession,
    queryFn: async ({ signal }) => {
      try {
        await call('admin_session', {}, signal);
        return true;
      } catch (err) {
        if (err instanceof ApiError && err.code === 'UNAUTHENTICATED') return false;
        throw err;
      }
    },
    staleTime: 60_000,
  });
}

export function useAdminMeta() {
  return useQuery({
    queryKey: queryKeys.adminMeta,
    queryFn: ({ signal }) => call('admin_meta', {}, signal),
    staleTime: 5 * 60_000,
  });
}

export function useUsers(search: string, page: PageRequest) {
  return useQuery({
    queryKey: [...queryKeys.users, { search, ...page }],
    queryFn: ({ signal }) => call('users', { pagination: page, ...(search ? { query: search } : {}) }, signal),
    placeholderData: keepPreviousData,
  });
}

export function useUser(id: string) {
  return useQuery({
    queryKey: queryKeys.user(id),
    queryFn: ({ signal }) => call('user', { id }, signal),
  });
}

export function useUserSessions(userId: string, page: PageRequest, includeRevoked: boolean) {
  return useQuery({
    queryKey: [...queryKeys.userSessions(userId), { includeRevoked, ...page }],
    queryFn: ({ signal }) => call('user_sessions', { user_id: userId, pagination: page, include_revoked: includeRevoked }, signal),
    placeholderData: keepPreviousData,
  });
}

export function useVerificationRequests(page: PageRequest) {
  return useQuery({
    queryKey: [...queryKeys.verificationRequests, page],
    queryFn: ({ signal }) => call('verification_requests', { pagination: page }, signal),
    placeholderData: keepPreviousData,
  });
}
