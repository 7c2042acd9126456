/**
 * An account's passkeys in its holder's copy, and its passkey ceremonies in its erasure (docs/privacy.md;
 * accounts' onPersonalDataExport and onAccountErased; the passkeys themselves go with the second factors,
 * mfa's onMfaReset). The copy names each passkey as its list does (webauthn_credentials): its name, kind and
 * dates; neither the public key nor the credential id, which identify the authenticator to relying parties
 * and are of no use to the holder.
 */
import type { EntityManager } from '@mikro-orm/core';
import type { PersonalDataSections } from '../accounts/index.ts';
import { passkeysOf } from './passkeys.ts';
import { WebauthnChallenge } from './webauthn-challenge.entity.ts';

export async function exportPasskeys(em: EntityManager, userId: string, sections: PersonalDataSections): Promise<void> {
  sections.passkeys = (await passkeysOf(em, userId)).map((passkey) => ({
    name: passkey.name,
    device_type: passkey.deviceType,
    backed_up: passkey.backedUp,
    transports: passkey.transports,
    created_at: passkey.createdAt.toISOString(),
    last_used_at: passkey.lastUsedAt ? passkey.lastUsedAt.toISOString() : null,
  }));
}

export async function eraseWebauthnChallenges(em: EntityManager, userId: string): Promise<void> {
  await em.nativeDelete(WebauthnChallenge, { userId });
}
