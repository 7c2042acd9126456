/**
 * The passkeys of users on storage: registration of a verified credential (W3C WebAuthn Level 3 section 7.1
 * steps 26-27), the credential an assertion names (section 7.2 step 5-6), the sign count update after a
 * verified assertion (section 7.2 step 22), listing and deleting one's own, and deleting all of a user's
 * (an admin's MFA reset). The user's `enrolledMfaMethods` lists `webauthn` while they have at least one.
 */
import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/core';
import type { Clock } from '../../kernel/deps.ts';
import { AppError } from '../../kernel/errors.ts';
import { sha256Hex } from '../../kernel/crypto.ts';
import { addEnrolledMethod, removeEnrolledMethod } from '../mfa/index.ts';
import { WebauthnCredential, type WebauthnCredentialRow } from './webauthn-credential.entity.ts';
import { WebauthnChallenge } from './webauthn-challenge.entity.ts';

/** Passkeys one account may hold: enough for every device a person owns, not a table an attacker can fill. */
export const MAX_PASSKEYS_PER_USER = 25;
export const PASSKEY_NAME_LENGTH = 64;

export interface NewPasskey {
  userId: string;
  credentialId: string;
  publicKey: Uint8Array;
  signCount: number;
  transports: string[];
  deviceType: string;
  backedUp: boolean;
  name?: string;
}

function credentialKey(credentialId: string): string {
  return sha256Hex(`webauthn-credential:${credentialId}`);
}

export function passkeysOf(em: EntityManager, userId: string): Promise<WebauthnCredentialRow[]> {
  return em.find(WebauthnCredential, { userId }, { orderBy: { createdAt: 'asc', id: 'asc' }, refresh: true });
}

/** The passkey with this credential id, whoever owns it. */
export function passkeyByCredentialId(em: EntityManager, credentialId: string): Promise<WebauthnCredentialRow | null> {
  return em.findOne(WebauthnCredential, { credentialKey: credentialKey(credentialId) }, { refresh: true });
}

/**
 * Stores a verified new credential and lists `webauthn` among the user's factors. A credential id already
 * registered (to this account or another) is refused (section 7.1 step 26), by the unique key when two
 * requests race.
 */
export async function savePasskey(em: EntityManager, clock: Clock, passkey: NewPasskey): Promise<WebauthnCredentialRow> {
  const count = await em.count(WebauthnCredential, { userId: passkey.userId });
  if (count >= MAX_PASSKEYS_PER_USER) throw AppError.precondition(`an account holds at most ${MAX_PASSKEYS_PER_USER} passkeys: delete one first`);
  if (await passkeyByCredentialId(em, passkey.credentialId)) throw new AppError('already_exists', 'this passkey is already registered');
  const now = clock.now();
  const name = passkey.name?.trim().slice(0, PASSKEY_NAME_LENGTH) || 'Passkey';
  const row = em.create(WebauthnCredential, {
    id: randomUUID(),
    userId: passkey.userId,
    credentialKey: credentialKey(passkey.credentialId),
    credentialId: passkey.credentialId,
    publicKey: Buffer.from(passkey.publicKey).toString('base64url'),
    signCount: passkey.signCount,
    transports: passkey.transports,
    deviceType: passkey.deviceType,
    backedUp: passkey.backedUp,
    name,
    createdAt: now,
    updatedAt: now,
    lastUsedAt: null,
  });
  try {
    await em.flush();
  } catch (err) {
    if ((err as { name?: string }).name === 'UniqueConstraintViolationException') throw new AppError('already_exists', 'this passkey is already registered');
    throw err;
  }
  await addEnrolledMethod(em, clock, passkey.userId, 'webauthn');
  return row;
}

/**
 * Records a verified assertion: the new sign count and the time of use, by compare-and-set on the count
 * read before the check, so of two assertions verified against the same count only one counts (section
 * 7.2 step 22: a count that does not move forward may be a cloned authenticator). Answers whether it did.
 */
export async function recordPasskeyUse(em: EntityManager, clock: Clock, passkey: WebauthnCredentialRow, newCount: number, backedUp: boolean): Promise<boolean> {
  const now = clock.now();
  const moved = await em.nativeUpdate(
    WebauthnCredential,
    { id: passkey.id, signCount: passkey.signCount },
    { signCount: newCount, backedUp, lastUsedAt: now, updatedAt: now },
  );
  return moved === 1;
}

/**
 * Deletes one passkey of the user. Another user's passkey and an unknown id answer the same not-found, so
 * the id of someone else's passkey cannot be confirmed. The last one takes `webauthn` off the user's factors.
 */
export async function deletePasskey(em: EntityManager, clock: Clock, userId: string, id: string): Promise<void> {
  const removed = await em.nativeDelete(WebauthnCredential, { id, userId });
  if (removed !== 1) throw AppError.notFound('passkey not found');
  if ((await em.count(WebauthnCredential, { userId })) === 0) await removeEnrolledMethod(em, clock, userId, 'webauthn');
}

/**
 * Every passkey of a user, gone, with the user's pending ceremonies (an admin's `reset_mfa`, an account
 * deletion: the mfa module's onMfaReset hook). The caller updates the user's `enrolledMfaMethods` as part of its own
 * reset. Answers how many passkeys were deleted.
 */
export async function deleteAllPasskeys(em: EntityManager, userId: string): Promise<number> {
  await em.nativeDelete(WebauthnChallenge, { userId });
  return em.nativeDelete(WebauthnCredential, { userId });
}
