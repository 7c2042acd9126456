/**
 * The user's list of verified second factors (User `enrolledMfaMethods`, docs/api-overview.md#resources-and-fields `enrolled_mfa_methods`),
 * written when a factor is verified or removed. Through the unit of work, so the token state cache hears of
 * the change like any other user write (tokens/state-cache/transaction-hooks.ts).
 */
import type { EntityManager } from '@mikro-orm/core';
import type { Clock } from '../../kernel/deps.ts';
import { User } from '../users/index.ts';

export type MfaMethod = 'totp' | 'email_otp' | 'sms_otp' | 'webauthn';

export async function addEnrolledMethod(em: EntityManager, clock: Clock, userId: string, method: MfaMethod): Promise<void> {
  const user = await em.findOne(User, { id: userId }, { refresh: true });
  if (!user) return;
  const methods = new Set(user.enrolledMfaMethods ?? []);
  if (methods.has(method)) return;
  methods.add(method);
  user.enrolledMfaMethods = [...methods].sort();
  user.updatedAt = clock.now();
  await em.flush();
}

/** Takes `method` off the user's list (its last factor of that kind was removed). */
export async function removeEnrolledMethod(em: EntityManager, clock: Clock, userId: string, method: MfaMethod): Promise<void> {
  const user = await em.findOne(User, { id: userId }, { refresh: true });
  if (!user || !(user.enrolledMfaMethods ?? []).includes(method)) return;
  user.enrolledMfaMethods = (user.enrolledMfaMethods ?? []).filter((m) => m !== method);
  user.updatedAt = clock.now();
  await em.flush();
}

/** Whether the user row lists a verified factor of `method`. */
export function hasEnrolledMethod(user: { enrolledMfaMethods?: string[] | null }, method: MfaMethod): boolean {
  return user.enrolledMfaMethods?.includes(method) ?? false;
}
