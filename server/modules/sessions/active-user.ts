import type { EntityManager } from '@mikro-orm/core';
import { User, type UserRow } from '../users/index.ts';

/**
 * The user behind a session or token, when it may still act: not deleted, not revoked by an admin
 * (revoke_access), not deactivated (deactivate_account). Checked on every authentication so that a
 * revocation takes effect at once (docs/tokens.md), whatever state the token records are in.
 */
export async function findActiveUser(em: EntityManager, userId: string): Promise<UserRow | null> {
  return activeUser(await em.findOne(User, { id: userId }));
}

/** The same rule for a row read elsewhere (the token state cache). */
export function activeUser(user: UserRow | null): UserRow | null {
  if (!user || user.revokedAt != null || user.deactivatedAt != null) return null;
  return user;
}
