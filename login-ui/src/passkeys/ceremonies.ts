/**
 * The WebAuthn ceremonies on @simplewebauthn/browser (W3C WebAuthn Level 3): the server's options JSON in,
 * the browser's response JSON out, so the page never handles key material. A person who closes the browser's
 * dialog gets no error of ours (NotAllowedError / a cancelled ceremony): they simply did not go on.
 */
import { startAuthentication, startRegistration, WebAuthnAbortService, WebAuthnError } from '@simplewebauthn/browser';
import { loginOptions, loginVerify, registrationOptions, registrationVerify } from '../api/passkey-operations.ts';
import type { AuthAnswer } from '../api/types.ts';

/** Creates a passkey and hands it to the server (signed in: adds it; with the mfa cookie: completes the offer). */
export async function registerPasskey(options: { name?: string; who?: { email?: string; phone_number?: string } } = {}): Promise<AuthAnswer> {
  const optionsJSON = JSON.parse(await registrationOptions(options.who)) as Parameters<typeof startRegistration>[0]['optionsJSON'];
  const response = await startRegistration({ optionsJSON });
  return registrationVerify(JSON.stringify(response), options.name);
}

/**
 * Signs in with a passkey: without an email the usernameless ceremony (the browser lists the site's
 * passkeys), with `autofill` the conditional one that waits for the person to pick a passkey in the email
 * field's suggestions (WebAuthn Level 3 "conditional mediation").
 */
export async function authenticateWithPasskey(options: { email?: string; autofill?: boolean; state?: string } = {}): Promise<AuthAnswer> {
  return loginVerify(await passkeyAssertion(options), options.state);
}

/** The browser's half of a passkey sign-in: the signed assertion as JSON text, not yet checked by the server. */
export async function passkeyAssertion(options: { email?: string; autofill?: boolean } = {}): Promise<string> {
  const optionsJSON = JSON.parse(await loginOptions(options.email)) as Parameters<typeof startAuthentication>[0]['optionsJSON'];
  return JSON.stringify(await startAuthentication({ optionsJSON, useBrowserAutofill: options.autofill ?? false }));
}

/** Stops a pending ceremony (the autofill one waits until the page leaves). */
export function cancelCeremony(): void {
  WebAuthnAbortService.cancelCeremony();
}

/** The person dismissed the browser's dialog or another ceremony replaced this one: nothing to report. */
export function wasDismissed(err: unknown): boolean {
  if (err instanceof WebAuthnError && err.code === 'ERROR_CEREMONY_ABORTED') return true;
  return err instanceof Error && (err.name === 'NotAllowedError' || err.name === 'AbortError');
}
