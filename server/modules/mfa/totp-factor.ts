/**
 * The TOTP factor on storage: enrolment (a new sealed secret and ten recovery codes, unverified until the
 * first right code), the check of a code against the stored secret with replay refused across requests and
 * instances, and the single use of recovery codes.
 *
 * Both checks end in a compare-and-set update (the step moves forward only from the value read; a code is
 * marked used only while unused), so two concurrent requests with the same code cannot both pass: the
 * database decides, not this process (ASVS 2.8.4 and NIST SP 800-63B 5.1.2.2 "used successfully only once").
 */
import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/core';
import type { Clock } from '../../kernel/deps.ts';
import type { Sealer } from '../../kernel/encryption.ts';
import { AppError } from '../../kernel/errors.ts';
import { MfaFactor, type MfaFactorRow } from './mfa-factor.entity.ts';
import { RecoveryCode } from './recovery-code.entity.ts';
import { checkTotp, newTotpSecret } from './totp.ts';
import { matchRecoveryCode, newRecoveryCodes } from './recovery-codes.ts';
import { addEnrolledMethod } from './enrolled-methods.ts';

export interface TotpDeps {
  readonly clock: Clock;
  readonly sealer: Sealer;
}

export interface TotpEnrolment {
  secret: string;
  recoveryCodes: string[];
}

/**
 * Starts (or restarts) a TOTP enrolment: a new secret replaces an unverified one. A verified factor is not
 * replaced here: swapping the secret of a working factor needs the factor removed first. The recovery codes
 * replace the user's earlier ones. Flushes `em`.
 */
export async function beginTotpEnrolment(em: EntityManager, deps: TotpDeps, userId: string): Promise<TotpEnrolment> {
  const existing = await em.findOne(MfaFactor, { userId, method: 'totp' }, { refresh: true });
  if (existing?.verifiedAt) throw AppError.precondition('an authenticator app is already set up for this account');
  const now = deps.clock.now();
  const secret = newTotpSecret();
  if (existing) {
    existing.secretSealed = deps.sealer.seal(secret);
    existing.lastUsedStep = null;
    existing.updatedAt = now;
  } else {
    em.create(MfaFactor, { id: randomUUID(), userId, method: 'totp', secretSealed: deps.sealer.seal(secret), lastUsedStep: null, verifiedAt: null, createdAt: now, updatedAt: now });
  }
  const { codes, digests } = newRecoveryCodes();
  await em.nativeDelete(RecoveryCode, { userId });
  for (const digest of digests) em.create(RecoveryCode, { id: randomUUID(), userId, digest, usedAt: null, createdAt: now });
  await em.flush();
  return { secret, recoveryCodes: codes };
}

function openSecret(sealer: Sealer, factor: MfaFactorRow): string | null {
  if (!factor.secretSealed) return null;
  try {
    return sealer.open(factor.secretSealed);
  } catch {
    // Sealed under another key (the key was rotated): the factor cannot be checked, so the code is refused.
    return null;
  }
}

/**
 * Checks a TOTP code for the user. `enrolment`: the factor may still be unverified, and a right code
 * verifies it. Answers whether the code was accepted; a replayed code answers false.
 */
export async function checkTotpFactor(em: EntityManager, deps: TotpDeps, userId: string, code: string, options: { enrolment?: boolean } = {}): Promise<boolean> {
  const factor = await em.findOne(MfaFactor, { userId, method: 'totp' }, { refresh: true });
  if (!factor || (!factor.verifiedAt && !options.enrolment)) return false;
  const secret = openSecret(deps.sealer, factor);
  if (!secret) return false;
  const now = deps.clock.now();
  const step = checkTotp(secret, code, now, factor.lastUsedStep);
  if (step === null) return false;
  const moved = await em.nativeUpdate(
    MfaFactor,
    { id: factor.id, lastUsedStep: factor.lastUsedStep ?? null },
    { lastUsedStep: step, updatedAt: now, ...(factor.verifiedAt ? {} : { verifiedAt: now }) },
  );
  if (moved !== 1) return false;
  if (!factor.verifiedAt) await addEnrolledMethod(em, deps.clock, userId, 'totp');
  return true;
}

/** Spends one unused recovery code of the user; answers whether it was one. */
export async function useRecoveryCode(em: EntityManager, deps: Pick<TotpDeps, 'clock'>, userId: string, code: string): Promise<boolean> {
  const unused = await em.find(RecoveryCode, { userId, usedAt: null }, { refresh: true });
  const index = matchRecoveryCode(code, unused.map((row) => row.digest));
  if (index < 0) return false;
  const spent = await em.nativeUpdate(RecoveryCode, { id: unused[index]!.id, usedAt: null }, { usedAt: deps.clock.now() });
  return spent === 1;
}
