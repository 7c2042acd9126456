/**
 * Passkeys (WebAuthn; docs/api-overview.md#states-and-transitions, docs/operations.md,
 * docs/api-overview.md#versioning): the credentials and ceremony challenges on
 * storage, and the six passkey operations. A module of its own because its operations sit on both sides
 * of sign-in (registration and management for a signed-in user, the ceremonies for anyone).
 */
import { defineModule, defineWorker } from '../manifest.ts';
import type { RetentionOptions, RetentionWorker } from '../audit/index.ts';
import { createWebauthnChallengeSweepWorker } from './challenge-sweep.ts';
import { subscription } from '../../kernel/hooks.ts';
import { onMfaReset } from '../mfa/index.ts';
import { onAccountErased, onPersonalDataExport } from '../accounts/index.ts';
import { eraseWebauthnChallenges, exportPasskeys } from './personal-data.ts';
import { deleteAllPasskeys } from './passkeys.ts';
import { WebauthnCredential } from './webauthn-credential.entity.ts';
import { WebauthnChallenge } from './webauthn-challenge.entity.ts';
import { webauthnRegistrationOptionsOp, webauthnRegistrationVerifyOp } from './registration.ops.ts';
import { webauthnLoginOptionsOp, webauthnLoginVerifyOp } from './login.ops.ts';
import { webauthnCredentialsOp, webauthnDeleteCredentialOp } from './credentials.ops.ts';

export { WebauthnCredential, type WebauthnCredentialRow } from './webauthn-credential.entity.ts';
export { WebauthnChallenge, type WebauthnChallengeRow } from './webauthn-challenge.entity.ts';
export { deleteAllPasskeys, passkeysOf } from './passkeys.ts';

export const webauthnModule = defineModule({
  name: 'webauthn',
  entities: [WebauthnCredential, WebauthnChallenge],
  operations: [
    webauthnRegistrationOptionsOp,
    webauthnRegistrationVerifyOp,
    webauthnLoginOptionsOp,
    webauthnLoginVerifyOp,
    webauthnCredentialsOp,
    webauthnDeleteCredentialOp,
  ],
  // An admin's reset_mfa, delete_user and an account takeover clear the passkeys with the other factors.
  hooks: [
    subscription(onMfaReset, deleteAllPasskeys),
    // The holder's copy and the erasure of their data (docs/privacy.md).
    subscription(onPersonalDataExport, exportPasskeys),
    subscription(onAccountErased, eraseWebauthnChallenges),
  ],
  workers: [defineWorker<RetentionWorker, RetentionOptions>({ name: 'webauthn-challenge-sweep', create: createWebauthnChallengeSweepWorker })],
});
