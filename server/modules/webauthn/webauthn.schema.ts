/**
 * Request and response objects of the passkey operations (docs/operations.md).
 * Options travel as an opaque JSON string (docs/operations.md, "creation options as an opaque JSON string"): what
 * @simplewebauthn/browser's startRegistration / startAuthentication take as `optionsJSON`. The browser's
 * answer travels back the same way, as the JSON text of the PublicKeyCredential (`credential`).
 */
import { s } from '../../ops/schema.ts';
import { PASSKEY_NAME_LENGTH } from './passkeys.ts';

const optionalString = () => s.optional(s.string());
/** An attestation 'none' response is well under 2 KiB; packed attestation with certificates a few KiB. */
const CREDENTIAL_LENGTH = 32 * 1024;

export const WebauthnRegistrationOptionsRequest = s.object('WebauthnRegistrationOptionsRequest', {
  email: optionalString(),
  phone_number: optionalString(),
});

export const WebauthnLoginOptionsRequest = s.object('WebauthnLoginOptionsRequest', {
  email: optionalString(),
});

export const WebauthnOptionsResponse = s.object('WebauthnOptionsResponse', {
  options: s.string({ description: 'PublicKeyCredentialCreationOptionsJSON or PublicKeyCredentialRequestOptionsJSON, as JSON text' }),
});

export const WebauthnRegistrationVerifyRequest = s.object('WebauthnRegistrationVerifyRequest', {
  name: s.optional(s.string({ maxLength: PASSKEY_NAME_LENGTH })),
  credential: s.string({ minLength: 1, maxLength: CREDENTIAL_LENGTH, description: 'RegistrationResponseJSON, as JSON text' }),
  email: optionalString(),
  phone_number: optionalString(),
  state: optionalString(),
});

export const WebauthnLoginVerifyRequest = s.object('WebauthnLoginVerifyRequest', {
  state: optionalString(),
  credential: s.string({ minLength: 1, maxLength: CREDENTIAL_LENGTH, description: 'AuthenticationResponseJSON, as JSON text' }),
});

export const WebauthnDeleteCredentialRequest = s.object('WebauthnDeleteCredentialRequest', {
  id: s.string({ minLength: 1, maxLength: 64 }),
});

export const WebauthnCredentialView = s.object('WebauthnCredential', {
  id: s.string(),
  name: s.string(),
  transports: s.list(s.string()),
  created_at: s.optional(s.int64()),
  updated_at: s.optional(s.int64()),
  last_used_at: s.optional(s.int64()),
});

export const WebauthnCredentialsResponse = s.object('WebauthnCredentialsResponse', {
  credentials: s.list(WebauthnCredentialView),
});
