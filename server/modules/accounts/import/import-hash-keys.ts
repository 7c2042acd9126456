/**
 * Where the project parameters of imported Firebase hashes live (imported-hash-key.entity.ts): stored once per
 * project, sealed, and found again by the key id each stored hash names when its holder signs in.
 */
import type { EntityManager } from '@mikro-orm/core';
import { hash } from 'node:crypto';
import type { Clock } from '../../../kernel/deps.ts';
import type { Sealer } from '../../../kernel/encryption.ts';
import type { FirebaseKeyResolver, FirebaseScryptParams } from '../../passwords/index.ts';
import { isUniqueViolation } from '../../../storage/errors.ts';
import { ImportedHashKey } from './imported-hash-key.entity.ts';

const FIREBASE = 'firebase-scrypt';

interface SealedFirebaseParams {
  signer_key: string;
  salt_separator: string;
  rounds: number;
  mem_cost: number;
}

/**
 * The key id of a parameter set: a SHA-256 of all of it under a label, so the same project always maps to
 * one row and different ones never share it. The signer key is 64 random bytes in every Firebase project,
 * so its digest reveals nothing of it.
 */
export function firebaseKeyId(params: FirebaseScryptParams): string {
  const digest = hash('sha256', Buffer.concat([
    Buffer.from(`portcullis imported firebase-scrypt ${params.rounds} ${params.memCost}\0`),
    params.saltSeparator,
    Buffer.from('\0'),
    params.signerKey,
  ]), 'base64url');
  return `fb${digest.slice(0, 32)}`;
}

/** Stores the parameters (once: a second import of the project finds the row) and answers their key id. */
export async function storeFirebaseParams(em: EntityManager, sealer: Sealer, clock: Clock, params: FirebaseScryptParams): Promise<string> {
  const id = firebaseKeyId(params);
  if (await em.count(ImportedHashKey, { id })) return id;
  const sealed: SealedFirebaseParams = {
    signer_key: params.signerKey.toString('base64'),
    salt_separator: params.saltSeparator.toString('base64'),
    rounds: params.rounds,
    mem_cost: params.memCost,
  };
  try {
    await em.insert(ImportedHashKey, { id, algorithm: FIREBASE, paramsSealed: sealer.seal(JSON.stringify(sealed)), createdAt: clock.now() });
  } catch (err) {
    // Two imports of the same project at once: the other one stored the same parameters.
    if (!isUniqueViolation(err)) throw err;
  }
  return id;
}

/** Finds a project's parameters for the login's verification (passwords/imported-verify.ts). */
export function firebaseKeyResolver(em: EntityManager, sealer: Sealer): FirebaseKeyResolver {
  return async (keyId) => {
    const row = await em.findOne(ImportedHashKey, { id: keyId, algorithm: FIREBASE }, { disableIdentityMap: true });
    if (!row) return null;
    const params = JSON.parse(sealer.open(row.paramsSealed)) as SealedFirebaseParams;
    return {
      signerKey: Buffer.from(params.signer_key, 'base64'),
      saltSeparator: Buffer.from(params.salt_separator, 'base64'),
      rounds: params.rounds,
      memCost: params.mem_cost,
    };
  };
}
