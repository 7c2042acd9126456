/**
 * Passkey registration (docs/operations.md#webauthn_registration_options / _verify;
 * docs/api-overview.md#states-and-transitions, "MFA offer pending, token withheld" -> "MFA gate completed, access token issued"; W3C WebAuthn Level 3 section 7.1).
 *
 * Options: a fresh challenge bound to the user (and to the offer's MFA challenge on that path), the user's
 * passkeys as `excludeCredentials` (section 5.4.3: the authenticator refuses to make a second credential for
 * an account it already holds one of), a discoverable credential preferred so the usernameless sign-in
 * works, and attestation `none`: the server trusts no authenticator model list, so it asks for no
 * attestation that would identify the device (section 5.4.7).
 *
 * Verify: the ceremony is taken first (single use), then @simplewebauthn/server checks what section 7.1
 * asks (type, challenge, origin of --url, RP ID hash of its host, user presence, algorithm). User
 * verification is not demanded here: the caller is already signed in or past the password, and a passkey
 * without it never signs in alone (login.ops.ts asks for it). On the signed-in path the answer carries the
 * user and no token (docs/api-overview.md#resources-and-fields AuthResponse: access_token null); on the offer path the offer is closed and the
 * withheld sign-in is issued (`amr` with hwk and mfa).
 *
 * A signed-in user adds a passkey only after a recent sign-in, checked at both steps (accounts/step-up.ts):
 * a passkey signs in alone, so one added through a stolen session would keep the account for the thief.
 */
import { defineOperation } from '../../ops/define.ts';
import type { Static } from '../../ops/schema.ts';
import { AppError } from '../../kernel/errors.ts';
import { toPublicUser, findUserById } from '../users/index.ts';
import { callerChallenge, closeChallenge } from '../mfa/index.ts';
import { AuthResponse, finishGatedLogin, requireRecentAuthentication } from '../accounts/index.ts';
import { CEREMONY_SECONDS, issueCeremony, takeCeremony } from './ceremony-challenge.ts';
import { parseRegistrationCredential } from './credential-json.ts';
import { passkeysOf, savePasskey } from './passkeys.ts';
import { loadWebauthn, relyingParty, SUPPORTED_ALGORITHMS } from './relying-party.ts';
import { registrant } from './registrant.ts';
import {
  WebauthnOptionsResponse, WebauthnRegistrationOptionsRequest, WebauthnRegistrationVerifyRequest,
} from './webauthn.schema.ts';
import { audit } from '../audit/index.ts';

export const REGISTRATION_REFUSED = 'the passkey could not be registered: start again';

type Transport = 'ble' | 'cable' | 'hybrid' | 'internal' | 'nfc' | 'smart-card' | 'usb';

export const webauthnRegistrationOptionsOp = defineOperation({
  name: 'webauthn_registration_options',
  admin: false,
  kind: 'mutation',
  description: 'Starts adding a passkey (signed in, or answering a first-time MFA offer): creation options as JSON text',
  input: WebauthnRegistrationOptionsRequest,
  output: WebauthnOptionsResponse,
  auth: 'user_or_mfa_cookie',
  graphql: { flatArgs: true },
  // Loading the library and writing one row need no transaction held across them.
  transaction: false,
  handler: async (input, ctx): Promise<Static<typeof WebauthnOptionsResponse>> => {
    const rp = relyingParty(ctx.deps.config);
    const { user, mfaChallengeId } = await registrant(ctx, input);
    await requireRecentAuthentication(ctx, 'add a passkey');
    const { generateRegistrationOptions } = await loadWebauthn();
    const existing = await passkeysOf(ctx.em, user.id);
    const userName = user.email ?? user.phoneNumber ?? user.id;
    const options = await generateRegistrationOptions({
      rpName: rp.name,
      rpID: rp.id,
      userName,
      userDisplayName: [user.givenName, user.familyName].filter(Boolean).join(' ') || userName,
      // Section 5.4.3: the user handle is an opaque id with no personal data; the account's random UUID.
      userID: new TextEncoder().encode(user.id),
      timeout: CEREMONY_SECONDS * 1000,
      attestationType: 'none',
      excludeCredentials: existing.map((passkey) => ({ id: passkey.credentialId, transports: passkey.transports as Transport[] })),
      // 'preferred', not 'required': a security key without room for a discoverable credential still
      // registers, and signs in when the email names its account.
      authenticatorSelection: { residentKey: 'preferred', userVerification: 'preferred' },
      supportedAlgorithmIDs: SUPPORTED_ALGORITHMS,
    });
    await issueCeremony(ctx.em, ctx.deps.clock, { challenge: options.challenge, kind: 'registration', userId: user.id, mfaChallengeId, userVerification: 'preferred' });
    return { options: JSON.stringify(options) };
  },
});

export const webauthnRegistrationVerifyOp = defineOperation({
  name: 'webauthn_registration_verify',
  admin: false,
  kind: 'mutation',
  description: 'Completes adding a passkey; on a first-time MFA offer also completes the sign-in and issues its tokens',
  input: WebauthnRegistrationVerifyRequest,
  output: AuthResponse,
  auth: 'user_or_mfa_cookie',
  transaction: false,
  handler: async (input, ctx): Promise<Static<typeof AuthResponse>> => {
    const { clock } = ctx.deps;
    const rp = relyingParty(ctx.deps.config);
    const credential = parseRegistrationCredential(input.credential);
    const { user, mfaChallengeId } = await registrant(ctx, input);
    await requireRecentAuthentication(ctx, 'add a passkey');
    const { verifyRegistrationResponse } = await loadWebauthn();
    const ceremony = await takeCeremony(ctx.em, clock, credential.challenge, 'registration');
    // A ceremony started by another account, or outside this offer, is not this registration's.
    if (!ceremony || ceremony.userId !== user.id || (ceremony.mfaChallengeId ?? undefined) !== mfaChallengeId) {
      throw AppError.invalid(REGISTRATION_REFUSED);
    }
    const verified = await verifyRegistrationResponse({
      response: credential.json,
      expectedChallenge: credential.challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      requireUserVerification: false,
      supportedAlgorithmIDs: SUPPORTED_ALGORITHMS,
    }).catch((err: unknown) => {
      ctx.log.debug({ err: (err as Error).message }, 'webauthn registration refused');
      return undefined;
    });
    if (!verified?.verified) throw AppError.invalid(REGISTRATION_REFUSED);
    const info = verified.registrationInfo;
    // The id the browser reported must be the one the authenticator attested (section 7.1 step 23 reads it
    // from the attested credential data): one credential, one id.
    if (info.credential.id !== credential.id) throw AppError.invalid(REGISTRATION_REFUSED);
    return ctx.em.transactional(async (em) => {
      await savePasskey(em, clock, {
        userId: user.id,
        credentialId: info.credential.id,
        publicKey: info.credential.publicKey,
        signCount: info.credential.counter,
        transports: info.credential.transports ?? [],
        deviceType: info.credentialDeviceType,
        backedUp: info.credentialBackedUp,
        name: input.name,
      });
      // The credential id is public (the browser sends it at every sign-in); the public key is not recorded.
      await audit({ ...ctx, em }, {
        action: 'user.passkey_added',
        actor: { type: 'user', id: user.id, email: user.email },
        resourceType: 'passkey',
        resourceId: info.credential.id,
      });
      if (mfaChallengeId) {
        const challenge = await callerChallenge(em, ctx.deps, mfaChallengeId);
        await closeChallenge(em, challenge);
        return finishGatedLogin({ ...ctx, em }, challenge, 'webauthn', 'Passkey registered: signed in');
      }
      const fresh = await findUserById(em, user.id);
      return { message: 'Passkey registered', user: toPublicUser(fresh ?? user) };
    });
  },
});
