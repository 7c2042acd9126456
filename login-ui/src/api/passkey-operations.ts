/**
 * The passkey operations (docs/operations.md, the webauthn_* sections). The server hands out
 * the ceremony options as an opaque JSON string and takes the browser's response back as one; the ceremonies
 * themselves run in passkeys/ceremonies.ts. Registration works signed in (adds a passkey, no token) and with the
 * mfa cookie of a first-time offer (completes the sign-in); login options without an email start the
 * usernameless (discoverable credential) ceremony. As docs/operations.md writes them, the options and delete
 * operations take plain arguments and the two verify operations a `params` object.
 */
import { graphql } from '../../../ui-shared/graphql-client.ts';
import { MFA_FLAG_FIELDS, USER_FIELDS } from './documents.ts';
import type { AuthAnswer, MessageAnswer } from './types.ts';

export interface Passkey {
  id: string;
  name?: string | null;
  transports?: string[] | string | null;
  created_at?: number | null;
  updated_at?: number | null;
  last_used_at?: number | null;
}

const REGISTRATION_OPTIONS = `mutation PasskeyRegistrationOptions($email: String, $phone_number: String) {
  webauthn_registration_options(email: $email, phone_number: $phone_number) { options }
}`;

export async function registrationOptions(who: { email?: string; phone_number?: string } = {}): Promise<string> {
  return (await graphql<{ webauthn_registration_options: { options: string } }>(REGISTRATION_OPTIONS, who)).webauthn_registration_options.options;
}

const REGISTRATION_VERIFY = `mutation PasskeyRegistrationVerify($name: String, $credential: String!) {
  webauthn_registration_verify(params: {name: $name, credential: $credential}) { message ${MFA_FLAG_FIELDS} user { ${USER_FIELDS} } }
}`;

export async function registrationVerify(credential: string, name?: string): Promise<AuthAnswer> {
  const variables = { credential, ...(name ? { name } : {}) };
  return (await graphql<{ webauthn_registration_verify: AuthAnswer }>(REGISTRATION_VERIFY, variables)).webauthn_registration_verify;
}

const LOGIN_OPTIONS = `mutation PasskeyLoginOptions($email: String) { webauthn_login_options(email: $email) { options } }`;

export async function loginOptions(email?: string): Promise<string> {
  return (await graphql<{ webauthn_login_options: { options: string } }>(LOGIN_OPTIONS, email ? { email } : {})).webauthn_login_options.options;
}

const LOGIN_VERIFY = `mutation PasskeyLoginVerify($credential: String!, $state: String) {
  webauthn_login_verify(params: {credential: $credential, state: $state}) { message ${MFA_FLAG_FIELDS} user { ${USER_FIELDS} } }
}`;

export async function loginVerify(credential: string, state?: string): Promise<AuthAnswer> {
  return (await graphql<{ webauthn_login_verify: AuthAnswer }>(LOGIN_VERIFY, { credential, ...(state ? { state } : {}) })).webauthn_login_verify;
}

const CREDENTIALS = `query Passkeys { webauthn_credentials { credentials { id name transports created_at updated_at last_used_at } } }`;

export async function passkeys(): Promise<Passkey[]> {
  return (await graphql<{ webauthn_credentials: { credentials: Passkey[] } }>(CREDENTIALS)).webauthn_credentials.credentials;
}

const DELETE = `mutation DeletePasskey($id: String!) { webauthn_delete_credential(id: $id) { message } }`;

export async function deletePasskey(id: string): Promise<MessageAnswer> {
  return (await graphql<{ webauthn_delete_credential: MessageAnswer }>(DELETE, { id })).webauthn_delete_credential;
}
