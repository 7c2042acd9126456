/**
 * Passkey sign-in (specification part 4.1 webauthn_login_options / _verify; W3C WebAuthn Level 3 section
 * 7.2), both passwordless and as the second factor of the MFA gate (part 3: the token withheld while a
 * challenge is pending).
 *
 * Verify takes the ceremony first (single use, even when what follows fails), finds the passkey by the
 * credential id the assertion names, and has @simplewebauthn/server check what section 7.2 asks: type,
 * challenge, origin of --url, RP ID hash of its host, user presence, the signature over authenticatorData
 * and the client data hash with the stored key, and the sign count (step 22: a count that does not move
 * forward, once either side is non-zero, is refused as a possible clone). Then:
 * - a ceremony bound to an MFA challenge, or any ceremony while the request carries a live `verify`-stage
 *   `mfa` cookie of the passkey's owner, completes that challenge: the withheld login is issued with the
 *   passkey added to its method (`amr` hwk, mfa);
 * - otherwise it is a passwordless sign-in: user verification must have happened (the UV flag; the passkey
 *   is then both "something you have" and "something you know or are", NIST SP 800-63B 5.1.9), and the
 *   login is issued with method `webauthn` (`amr` hwk). The gate does not apply: a verified passkey is
 *   already a multi-factor authenticator.
 * Every refusal after the shape check is the same `unauthenticated` answer, so it does not tell which
 * check failed or whether a credential id is registered.
 */
import { defineOperation } from '../../ops/define.ts';
import type { HandlerContext } from '../../ops/define.ts';
import type { Static } from '../../ops/schema.ts';
import { AppError } from '../../kernel/errors.ts';
import { clientKey } from '../limits/index.ts';
import { findUserById, rolesForLogin } from '../users/index.ts';
import { closeChallenge } from '../mfa/index.ts';
import { AuthResponse } from '../accounts/accounts.schema.ts';
import { DEFAULT_SCOPE, completeLogin } from '../accounts/complete-login.ts';
import { finishGatedLogin } from '../accounts/mfa-complete.ts';
import { CEREMONY_SECONDS, issueCeremony, takeCeremony } from './ceremony-challenge.ts';
import { parseAuthenticationCredential } from './credential-json.ts';
import { passkeyByCredentialId, recordPasskeyUse } from './passkeys.ts';
import { loadWebauthn, relyingParty } from './relying-party.ts';
import { gateChallengeOf, loginCeremony } from './login-options.ts';
import { WebauthnLoginOptionsRequest, WebauthnLoginVerifyRequest, WebauthnOptionsResponse } from './webauthn.schema.ts';

export const PASSKEY_SIGN_IN_REFUSED = 'passkey sign-in failed';

type Transport = 'ble' | 'cable' | 'hybrid' | 'internal' | 'nfc' | 'smart-card' | 'usb';

/** Public ceremonies spend the caller's per-IP allowance (modules/limits/policies.ts webauthn_ceremony). */
function spendCeremony(ctx: HandlerContext): Promise<void> {
  return ctx.deps.limits.consume('webauthn_ceremony', clientKey(ctx.req.ip));
}

export const webauthnLoginOptionsOp = defineOperation({
  name: 'webauthn_login_options',
  admin: false,
  kind: 'mutation',
  description: 'Starts a passkey sign-in: request options as JSON text (omit email for a discoverable passkey)',
  input: WebauthnLoginOptionsRequest,
  output: WebauthnOptionsResponse,
  auth: 'public',
  graphql: { flatArgs: true },
  transaction: false,
  handler: async (input, ctx): Promise<Static<typeof WebauthnOptionsResponse>> => {
    const rp = relyingParty(ctx.deps.config);
    await spendCeremony(ctx);
    const { generateAuthenticationOptions } = await loadWebauthn();
    const ceremony = await loginCeremony(ctx, input.email);
    const options = await generateAuthenticationOptions({
      rpID: rp.id,
      allowCredentials: ceremony.allowCredentials?.map((c) => ({ id: c.id, transports: c.transports as Transport[] })),
      timeout: CEREMONY_SECONDS * 1000,
      userVerification: ceremony.userVerification,
    });
    await issueCeremony(ctx.em, ctx.deps.clock, { challenge: options.challenge, kind: 'authentication', ...ceremony });
    return { options: JSON.stringify(options) };
  },
});

export const webauthnLoginVerifyOp = defineOperation({
  name: 'webauthn_login_verify',
  admin: false,
  kind: 'mutation',
  description: 'Completes a passkey sign-in (or, with the mfa cookie, the MFA challenge of a sign-in) and issues tokens',
  input: WebauthnLoginVerifyRequest,
  output: AuthResponse,
  auth: 'public',
  transaction: false,
  handler: async (input, ctx): Promise<Static<typeof AuthResponse>> => {
    const { clock } = ctx.deps;
    const rp = relyingParty(ctx.deps.config);
    await spendCeremony(ctx);
    const credential = parseAuthenticationCredential(input.credential);
    const refused = () => AppError.unauthenticated(PASSKEY_SIGN_IN_REFUSED);
    const { verifyAuthenticationResponse } = await loadWebauthn();
    const ceremony = await takeCeremony(ctx.em, clock, credential.challenge, 'authentication');
    if (!ceremony) throw refused();
    const passkey = await passkeyByCredentialId(ctx.em, credential.id);
    if (!passkey || (ceremony.userId && ceremony.userId !== passkey.userId)) throw refused();
    // Section 7.2 step 6: a user handle, when the authenticator returns one, is the owner's.
    const userHandle = credential.json.response.userHandle;
    if (userHandle && userHandle !== Buffer.from(passkey.userId, 'utf8').toString('base64url')) throw refused();
    const gate = await gateChallengeOf(ctx);
    if (ceremony.mfaChallengeId && gate?.id !== ceremony.mfaChallengeId) throw refused();
    const completesGate = gate !== undefined && gate.userId === passkey.userId;
    const verified = await verifyAuthenticationResponse({
      response: credential.json,
      expectedChallenge: credential.challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      credential: { id: passkey.credentialId, publicKey: Buffer.from(passkey.publicKey, 'base64url'), counter: passkey.signCount, transports: passkey.transports as Transport[] },
      requireUserVerification: ceremony.userVerification === 'required',
    }).catch((err: unknown) => {
      ctx.log.debug({ err: (err as Error).message }, 'webauthn assertion refused');
      return undefined;
    });
    if (!verified?.verified) throw refused();
    const info = verified.authenticationInfo;
    return ctx.em.transactional(async (em) => {
      if (!(await recordPasskeyUse(em, clock, passkey, info.newCounter, info.credentialBackedUp))) throw refused();
      if (completesGate) {
        await closeChallenge(em, gate);
        return finishGatedLogin({ ...ctx, em }, gate, 'webauthn');
      }
      const user = await findUserById(em, passkey.userId);
      if (!user) throw refused();
      if (user.revokedAt) throw AppError.forbidden('user access has been revoked');
      return completeLogin({ ...ctx, em }, user, {
        roles: rolesForLogin(user),
        scope: [...DEFAULT_SCOPE],
        loginMethod: 'webauthn',
        message: 'Logged in successfully',
      });
    });
  },
});
