/** Typed calls of the admin mutations (ui-shared/contract); each throws ApiError with the server's message. */
import { call, type Output } from '../../../ui-shared/contract/call.ts';
import type { AdminUser, MessageAnswer } from './types.ts';

export async function adminLogin(adminSecret: string): Promise<MessageAnswer> {
  return call('admin_login', { admin_secret: adminSecret });
}

export async function adminLogout(): Promise<MessageAnswer> {
  return call('admin_logout', {});
}

export async function updateUserRoles(id: string, roles: string[]): Promise<AdminUser> {
  return call('update_user', { id, roles });
}

export async function deleteUser(id: string): Promise<MessageAnswer> {
  return call('delete_user', { id });
}

export async function revokeAccess(userId: string): Promise<MessageAnswer> {
  return call('revoke_access', { user_id: userId });
}

export async function enableAccess(userId: string): Promise<MessageAnswer> {
  return call('enable_access', { user_id: userId });
}

export async function inviteMembers(emails: string[], redirectUri?: string): Promise<Output<'invite_members'>> {
  return call('invite_members', { emails, ...(redirectUri ? { redirect_uri: redirectUri } : {}) });
}

export async function revokeSession(userId: string, sessionId: string): Promise<MessageAnswer> {
  return call('revoke_session', { user_id: userId, id: sessionId });
}

/** docs/operations.md#update_user `reset_mfa`: clears every factor, recovery code, lock and skip of the user. */
export async function resetMfa(id: string): Promise<AdminUser> {
  return call('update_user', { id, reset_mfa: true });
}
