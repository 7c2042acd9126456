/** Typed calls of the admin mutations (documents.ts); each throws ApiError with the server's message. */
import { graphql } from '../../../ui-shared/graphql-client.ts';
import {
  ADMIN_LOGIN, ADMIN_LOGOUT, DELETE_USER, ENABLE_ACCESS, INVITE_MEMBERS, REVOKE_ACCESS, REVOKE_SESSION, UPDATE_USER,
} from './documents.ts';
import type { AdminUser, MessageAnswer } from './types.ts';

export async function adminLogin(adminSecret: string): Promise<MessageAnswer> {
  return (await graphql<{ _admin_login: MessageAnswer }>(ADMIN_LOGIN, { params: { admin_secret: adminSecret } }))._admin_login;
}

export async function adminLogout(): Promise<MessageAnswer> {
  return (await graphql<{ _admin_logout: MessageAnswer }>(ADMIN_LOGOUT))._admin_logout;
}

export async function updateUserRoles(id: string, roles: string[]): Promise<AdminUser> {
  return (await graphql<{ _update_user: AdminUser }>(UPDATE_USER, { params: { id, roles } }))._update_user;
}

export async function deleteUser(id: string): Promise<MessageAnswer> {
  return (await graphql<{ _delete_user: MessageAnswer }>(DELETE_USER, { params: { id } }))._delete_user;
}

export async function revokeAccess(userId: string): Promise<MessageAnswer> {
  return (await graphql<{ _revoke_access: MessageAnswer }>(REVOKE_ACCESS, { param: { user_id: userId } }))._revoke_access;
}

export async function enableAccess(userId: string): Promise<MessageAnswer> {
  return (await graphql<{ _enable_access: MessageAnswer }>(ENABLE_ACCESS, { param: { user_id: userId } }))._enable_access;
}

export async function inviteMembers(emails: string[], redirectUri?: string): Promise<MessageAnswer & { Users: { id: string; email: string }[] }> {
  const params = { emails, ...(redirectUri ? { redirect_uri: redirectUri } : {}) };
  type Answer = { _invite_members: MessageAnswer & { Users: { id: string; email: string }[] } };
  return (await graphql<Answer>(INVITE_MEMBERS, { params }))._invite_members;
}

export async function revokeSession(userId: string, sessionId: string): Promise<MessageAnswer> {
  return (await graphql<{ _revoke_session: MessageAnswer }>(REVOKE_SESSION, { params: { user_id: userId, id: sessionId } }))._revoke_session;
}

/** reference.md `_update_user` `reset_mfa`: clears every factor, recovery code, lock and skip of the user. */
export async function resetMfa(id: string): Promise<AdminUser> {
  return (await graphql<{ _update_user: AdminUser }>(UPDATE_USER, { params: { id, reset_mfa: true } }))._update_user;
}
