/**
 * The one-time set-password link an administrator copies from create_user and hands over themselves (no
 * email is sent). It is a verification request like a password reset (random 32 bytes, stored as its SHA-256,
 * single use, expiring; verification.service.ts), completed by the same reset_password operation and the same
 * reset page of the login UI, under an identifier of its own: nothing was mailed, so completing it proves no
 * mailbox and no phone number (users/address-proof.ts), unlike a reset by the emailed link or texted code.
 */
import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/core';
import type { Clock } from '../../kernel/deps.ts';
import { randomToken, sha256Hex } from '../../kernel/crypto.ts';
import { VerificationRequest } from './verification-request.entity.ts';

/** The identifier of these requests; reset_password accepts it besides forgot_password and invite_member. */
export const SET_PASSWORD_IDENTIFIER = 'set_password';
/** As long as an invitation (accounts/message-delivery.ts): the administrator passes the link on by hand. */
export const SET_PASSWORD_TTL_SECONDS = 7 * 24 * 3600;
const TOKEN_BYTES = 32;

export interface SetPasswordToken {
  /** The raw token, for the link only; it is not kept. */
  token: string;
  expiresAt: Date;
}

/**
 * A new set-password token for `user`; an earlier one of the same user stops working, so only the newest link
 * counts. Keyed by the user's id: an account created with only a phone number has no email to key it by (its
 * `email` is left empty). Flushes `em`.
 */
export async function createSetPasswordToken(
  em: EntityManager,
  clock: Clock,
  user: { id: string; email?: string | null },
  ttlSeconds = SET_PASSWORD_TTL_SECONDS,
): Promise<SetPasswordToken> {
  const now = clock.now();
  const token = randomToken(TOKEN_BYTES);
  const expiresAt = new Date(now.getTime() + ttlSeconds * 1000);
  await em.nativeDelete(VerificationRequest, { userId: user.id, identifier: SET_PASSWORD_IDENTIFIER });
  em.create(VerificationRequest, {
    id: randomUUID(),
    tokenHash: sha256Hex(token),
    identifier: SET_PASSWORD_IDENTIFIER,
    email: user.email ?? '',
    userId: user.id,
    expiresAt,
    nonce: randomUUID(),
    redirectUri: null,
    createdAt: now,
    updatedAt: now,
    usedAt: null,
  });
  await em.flush();
  return { token, expiresAt };
}
