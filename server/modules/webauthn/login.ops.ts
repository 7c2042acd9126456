/**
 * Passkey sign-in (docs/operations.md#webauthn_login_options / _verify; W3C WebAuthn Level 3 section
 * 7.2), both passwordless and as the second factor of the MFA gate (docs/api-overview.md#states-and-transitions: the token withheld while a
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
 *   sign-in policy (accounts/sign-in-policy.ts) decides it like any other, with method `webauthn` (`amr`
 *   hwk): a revoked, deactivated or MFA-locked account is refused. The gate does not apply: a verified
 *   passkey is already a multi-factor authenticator.
 * Every refusal after the shape check is the same `unauthenticated` answer, so it does not tell which
 * check failed or whether a credential id is registered; each is audited (`user.login_failed`, method
 * webauthn, naming the account when the credential is registered), so an administrator sees a passkey
 * being tried.
 */
import { defineOperation } from '../../ops/define.ts';
import type { HandlerContext } from '../../ops/define.ts';
import type { Static } from '../../ops/schema.ts';
import { AppError } from '../../kernel/errors.ts';
import { clientKey } from '../limits/index.ts';
import { findUserById, rolesForLogin } from '../users/index.ts';
import { closeChallenge } from '../mfa/index.ts';
import { AuthResponse, finishGatedLogin, signIn } from '../accounts/index.ts';
import { DEFAULT_SCOPE } from '../tokens/index.ts';
import { auditNow } from '../audit/index.ts';
import { CEREMONY_SECONDS, issueCeremony, takeCeremony } from './ceremony-challenge.ts';
import { parseAuthenticationCredential } from './credential-json.ts';
import { passkeyByCredentialId, recordPasskeyUse } from './passkeys.ts';
import { loadWebauthn, relyingParty } from './relying-party.ts';
import { gateChallengeOf, loginCeremony } from './login-options.ts';
import { WebauthnLoginOptionsRequest, WebauthnLoginVerifyRequest, WebauthnOptionsResponse } from './webauthn.schema.ts';

export const PASSKEY_SIGN_IN_REFUSED = 'passkey sign-in failed';

type Transport = 'ble' | 'cable' | 'hybrid' | 'internal' | 'nfc' | 'smart-card' | 'usb';

/** A refused passkey sign-in, audited before the uniform answer; `userId` when the credential is registered. */
async function refusal(ctx: HandlerContext, reason: string, userId?: string): Promise<AppError> {
  await auditNow(ctx, {
    action: 'user.login_failed',
    actor: userId ? { type: 'user', id: userId } : { type: 'anonymous' },
    resourceType: 'user',
    resourceId: userId,
    metadata: { reason, login_method: 'webauthn' },
  });
  return AppError.unauthenticated(PASSKEY_SIGN_IN_REFUSED);
}

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
    const { verifyAuthenticationResponse } = await loadWebauthn();
    const ceremony = await takeCeremony(ctx.em, clock, credential.challenge, 'authentication');
    if (!ceremony) throw await refusal(ctx, 'unknown_ceremony');
    const passkey = await passkeyByCredentialId(ctx.em, credential.id);
    if (!passkey) throw await refusal(ctx, 'unknown_credential');
    if (ceremony.userId && ceremony.userId !== passkey.userId) throw await refusal(ctx, 'other_account', passkey.userId);
    // Section 7.2 step 6: a user handle, when the authenticator returns one, is the owner's.
    const userHandle = credential.json.response.userHandle;
    if (userHandle && userHandle !== Buffer.from(passkey.userId, 'utf8').toString('base64url')) throw await refusal(ctx, 'user_handle', passkey.userId);
    const gate = await gateChallengeOf(ctx);
    if (ceremony.mfaChallengeId && gate?.id !== ceremony.mfaChallengeId) throw await refusal(ctx, 'challenge_mismatch', passkey.userId);
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
    if (!verified?.verified) throw await refusal(ctx, 'assertion', passkey.userId);
    const info = verified.authenticationInfo;
    type Outcome = { answer: Static<typeof AuthResponse> } | { refused: 'sign_count' | 'no_account' };
    const outcome = await ctx.em.transactional(async (em): Promise<Outcome> => {
      if (!(await recordPasskeyUse(em, clock, passkey, info.newCounter, info.credentialBackedUp))) return { refused: 'sign_count' };
      if (completesGate) {
        await closeChallenge(em, gate);
        return { answer: await finishGatedLogin({ ...ctx, em }, gate, 'webauthn') };
      }
      const user = await findUserById(em, passkey.userId);
      if (!user) return { refused: 'no_account' };
      const signedIn = await signIn({ ...ctx, em }, {
        strategy: 'passkey',
        user,
        loginMethod: 'webauthn',
        roles: rolesForLogin(user),
        scope: [...DEFAULT_SCOPE],
        message: 'Logged in successfully',
      });
      return { answer: signedIn.response };
    });
    if ('refused' in outcome) throw await refusal(ctx, outcome.refused, passkey.userId);
    return outcome.answer;
  },
});
