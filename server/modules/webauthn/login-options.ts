/**
 * What a passkey sign-in offers (docs/operations.md#webauthn_login_options; W3C WebAuthn Level 3
 * section 5.5 `allowCredentials`, `userVerification`).
 *
 * - At the MFA gate (a live `verify`-stage `mfa` cookie): that user's passkeys, user verification
 *   preferred (the password was the first factor), the ceremony bound to that challenge.
 * - With an email: the passkeys of that account, user verification required (the passkey is both factors).
 *   An unknown address, or an account without passkeys, gets credential ids made up from the address with a
 *   server key, the same ones at every call, so the answer tells nobody whether an account exists or has a
 *   passkey (section 14.6.2 "Username Enumeration"; the real and made-up lists look alike in shape).
 * - Without either: the usernameless (discoverable credential) ceremony, no `allowCredentials`.
 */
import type { HandlerContext } from '../../ops/define.ts';
import type { Config } from '../../config/flags.ts';
import { AppError } from '../../kernel/errors.ts';
import { MFA_COOKIE } from '../../kernel/cookies.ts';
import { hmacSha256Hex } from '../../kernel/crypto.ts';
import { findUserByEmail, normaliseEmail } from '../users/index.ts';
import { liveChallenge, type MfaChallengeRow } from '../mfa/index.ts';
import { passkeysOf } from './passkeys.ts';

export interface LoginCeremony {
  allowCredentials?: { id: string; transports?: string[] }[];
  userId?: string;
  mfaChallengeId?: string;
  userVerification: 'required' | 'preferred';
}

/** The live `verify`-stage challenge the request's `mfa` cookie names; undefined without one. */
export async function gateChallengeOf(ctx: HandlerContext): Promise<MfaChallengeRow | undefined> {
  const cookie = ctx.credentials.cookies[MFA_COOKIE];
  if (!cookie) return undefined;
  try {
    return await liveChallenge(ctx.em, ctx.deps, cookie, 'verify');
  } catch (err) {
    // A stale or foreign cookie does not stop a passwordless sign-in; it just is not a gate to complete.
    if (err instanceof AppError) return undefined;
    throw err;
  }
}

/** Made-up credential ids for an address: 32 bytes of HMAC under a key only this server holds. */
function decoyCredentials(config: Config, email: string): { id: string; transports: string[] }[] {
  const key = `portcullis/webauthn-decoy\0${config.encryptionKey || config.jwtSecret || ''}`;
  const id = Buffer.from(hmacSha256Hex(key, normaliseEmail(email)), 'hex').toString('base64url');
  return [{ id, transports: ['hybrid', 'internal'] }];
}

export async function loginCeremony(ctx: HandlerContext, email: string | undefined): Promise<LoginCeremony> {
  const gate = await gateChallengeOf(ctx);
  if (gate) {
    const passkeys = await passkeysOf(ctx.em, gate.userId);
    return {
      allowCredentials: passkeys.map((p) => ({ id: p.credentialId, transports: p.transports })),
      userId: gate.userId,
      mfaChallengeId: gate.id,
      userVerification: 'preferred',
    };
  }
  if (!email) return { userVerification: 'required' };
  const user = await findUserByEmail(ctx.em, email);
  // The passkey query runs for an unknown address too, so both answers take about the same time.
  const passkeys = await passkeysOf(ctx.em, user?.id ?? '');
  if (!user || passkeys.length === 0) return { allowCredentials: decoyCredentials(ctx.deps.config, email), userVerification: 'required' };
  return {
    allowCredentials: passkeys.map((p) => ({ id: p.credentialId, transports: p.transports })),
    userId: user.id,
    userVerification: 'required',
  };
}
