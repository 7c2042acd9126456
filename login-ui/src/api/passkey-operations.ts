/**
 * The passkey operations (docs/operations.md, the webauthn_* sections). The server hands out
 * the ceremony options as an opaque JSON string and takes the browser's response back as one; the ceremonies
 * themselves run in passkeys/ceremonies.ts. Registration works signed in (adds a passkey, no token) and with the
 * mfa cookie of a first-time offer (completes the sign-in); login options without an email start the
 * usernameless (discoverable credential) ceremony. As docs/operations.md writes them, the options and delete
 * operations take plain arguments and the two verify operations a `params` object.
 */
import { call, type Output } from '../../../ui-shared/contract/public-call.ts';
import type { AuthAnswer, MessageAnswer } from './types.ts';

export type Passkey = Output<'webauthn_credentials'>['credentials'][number];

export async function registrationOptions(who: { email?: string; phone_number?: string } = {}): Promise<string> {
  return (await call('webauthn_registration_options', who)).options;
}

export async function registrationVerify(credential: string, name?: string): Promise<AuthAnswer> {
  return call('webauthn_registration_verify', { credential, ...(name ? { name } : {}) });
}

export async function loginOptions(email?: string): Promise<string> {
  return (await call('webauthn_login_options', email ? { email } : {})).options;
}

export async function loginVerify(credential: string, state?: string): Promise<AuthAnswer> {
  return call('webauthn_login_verify', { credential, ...(state ? { state } : {}) });
}

export async function passkeys(): Promise<Passkey[]> {
  return (await call('webauthn_credentials', {})).credentials;
}

export async function deletePasskey(id: string): Promise<MessageAnswer> {
  return call('webauthn_delete_credential', { id });
}
