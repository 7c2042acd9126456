/**
 * Clearing a user's MFA state (docs/operations.md#update_user `reset_mfa`: "clears all MFA state";
 * docs/api-overview.md#states-and-transitions: a locked account needs an admin's recovery): every factor and recovery code, pending challenges,
 * the lock and the recorded decline of the offer. The user then signs in with the first factor alone, or
 * is offered a new second factor where the instance or the user asks for one.
 */
import type { EntityManager } from '@mikro-orm/core';
import type { Clock } from '../../kernel/deps.ts';
import { defineHook } from '../../kernel/hooks.ts';
import type { UserRow } from '../users/index.ts';
import { MfaFactor } from './mfa-factor.entity.ts';
import { RecoveryCode } from './recovery-code.entity.ts';
import { MfaChallenge } from './mfa-challenge.entity.ts';

/**
 * A user's second factors are being cleared, in the caller's transaction: factors kept by modules above this
 * one go too (the webauthn module deletes the passkeys). Required: a reset that left passkeys would not be one.
 */
export const onMfaReset = defineHook<[em: EntityManager, userId: string]>('onMfaReset', { required: true });

/** Removes the user's factors, passkeys, recovery codes and challenges (also what delete_user erases). */
export async function purgeMfaRecords(em: EntityManager, userId: string): Promise<void> {
  await em.nativeDelete(MfaFactor, { userId });
  await onMfaReset.run(em, userId);
  await em.nativeDelete(RecoveryCode, { userId });
  await em.nativeDelete(MfaChallenge, { userId });
}

/** purgeMfaRecords, and the user row's MFA fields; the caller flushes the user. */
export async function resetMfa(em: EntityManager, clock: Clock, user: UserRow): Promise<void> {
  await purgeMfaRecords(em, user.id);
  user.enrolledMfaMethods = [];
  user.mfaLockedAt = null;
  user.hasSkippedMfaSetupAt = null;
  user.updatedAt = clock.now();
}
