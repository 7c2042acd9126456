/**
 * Server state of the console (TanStack Query). Tables paginate on the server: each page is its
 * own query, and the previous page stays on screen while the next one loads (no flash of an empty table).
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { ApiError, graphql } from '../../../ui-shared/graphql-client.ts';
import { ADMIN_META, ADMIN_SESSION, USER, USER_SESSIONS, USERS, VERIFICATION_REQUESTS } from './documents.ts';
import type { AdminMeta, AdminUser, PageRequest, Pagination, UserSession, VerificationRequest } from './types.ts';

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
        await graphql(ADMIN_SESSION, {}, signal);
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
    queryFn: async ({ signal }) => (await graphql<{ _admin_meta: AdminMeta }>(ADMIN_META, {}, signal))._admin_meta,
    staleTime: 5 * 60_000,
  });
}

export function useUsers(search: string, page: PageRequest) {
  return useQuery({
    queryKey: [...queryKeys.users, { search, ...page }],
    queryFn: async ({ signal }) => {
      const params = { pagination: page, ...(search ? { query: search } : {}) };
      return (await graphql<{ _users: { users: AdminUser[]; pagination: Pagination } }>(USERS, { params }, signal))._users;
    },
    placeholderData: keepPreviousData,
  });
}

export function useUser(id: string) {
  return useQuery({
    queryKey: queryKeys.user(id),
    queryFn: async ({ signal }) => (await graphql<{ _user: AdminUser }>(USER, { params: { id } }, signal))._user,
  });
}

export function useUserSessions(userId: string, page: PageRequest, includeRevoked: boolean) {
  return useQuery({
    queryKey: [...queryKeys.userSessions(userId), { includeRevoked, ...page }],
    queryFn: async ({ signal }) => {
      const params = { user_id: userId, pagination: page, include_revoked: includeRevoked };
      type Answer = { _user_sessions: { sessions: UserSession[]; pagination: Pagination } };
      return (await graphql<Answer>(USER_SESSIONS, { params }, signal))._user_sessions;
    },
    placeholderData: keepPreviousData,
  });
}

export function useVerificationRequests(page: PageRequest) {
  return useQuery({
    queryKey: [...queryKeys.verificationRequests, page],
    queryFn: async ({ signal }) => {
      type Answer = { _verification_requests: { verification_requests: VerificationRequest[]; pagination: Pagination } };
      return (await graphql<Answer>(VERIFICATION_REQUESTS, { params: { pagination: page } }, signal))._verification_requests;
    },
    placeholderData: keepPreviousData,
  });
}
