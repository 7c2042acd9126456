/**
 * A signed-in user's second factors as the tests add them over REST: an authenticator app (totp_mfa_setup,
 * then verify_otp with a code computed from the secret shown, RFC 6238) and a passkey made by a software
 * authenticator (webauthn_registration_options, then webauthn_registration_verify; W3C WebAuthn Level 3
 * section 7.1). Each step must succeed.
 */
import assert from 'node:assert/strict';
import { SoftAuthenticator } from './soft-authenticator.ts';
import type { TestClock } from './test-clock.ts';
import { threeProtocols, type Reachable } from './three-protocols.ts';
import { totpCode, TOTP_PERIOD_SECONDS } from '../../server/modules/mfa/totp.ts';

/** The test servers' --url (test/support/app.ts): the origin a passkey is made for, its host the RP ID. */
export const PASSKEY_ORIGIN = 'http://127.0.0.1:8080';

/**
 * Adds and verifies an authenticator app; the clock then moves to the next step, so that no code of the
 * enrolment's step is in the way of the test's next one.
 */
export async function enrolTotp(server: Reachable, bearer: Record<string, string>, clock: TestClock): Promise<{ secret: string; recoveryCodes: string[] }> {
  const { over } = threeProtocols(server);
  const setup = await over('rest', 'totp_mfa_setup', {}, bearer);
  const secret = setup.authenticator_secret as string;
  await over('rest', 'verify_otp', { otp: totpCode(secret, clock.now()), is_totp: true }, bearer);
  clock.advance(TOTP_PERIOD_SECONDS);
  return { secret, recoveryCodes: setup.authenticator_recovery_codes as string[] };
}

/** Registers a passkey of `authenticator` (a fresh one by default) for the signed-in user. */
export async function addPasskey(
  server: Reachable,
  bearer: Record<string, string>,
  options: { authenticator?: SoftAuthenticator; name?: string } = {},
): Promise<{ authenticator: SoftAuthenticator; registered: any }> {
  const { over } = threeProtocols(server);
  const authenticator = options.authenticator ?? new SoftAuthenticator(PASSKEY_ORIGIN);
  const ceremony = await over('rest', 'webauthn_registration_options', {}, bearer);
  assert.equal(typeof ceremony.options, 'string', 'registration options');
  const registered = await over('rest', 'webauthn_registration_verify', { credential: authenticator.register(ceremony.options), ...(options.name === undefined ? {} : { name: options.name }) }, bearer);
  return { authenticator, registered };
}
