/**
 * The `credential` field of the verify operations: the browser's PublicKeyCredential as JSON text (W3C
 * WebAuthn Level 3 section 5.1.8 `toJSON()`, what @simplewebauthn/browser answers), checked for its shape
 * before anything is looked up, and read for the challenge its clientDataJSON answers (section 5.8.1), which
 * names the server-side ceremony to take (ceremony-challenge.ts).
 */
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import { AppError } from '../../kernel/errors.ts';

export const MALFORMED_CREDENTIAL = 'malformed WebAuthn credential';

const BASE64URL = /^[A-Za-z0-9_-]*$/;
/** Section 5.8.3: a credential id is at most 1023 bytes, 1364 characters of base64url. */
const MAX_CREDENTIAL_ID = 1364;

type Json = Record<string, unknown>;

function object(value: unknown): Json {
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw AppError.invalid(MALFORMED_CREDENTIAL);
  return value as Json;
}

function base64url(value: unknown, max = Number.MAX_SAFE_INTEGER, min = 1): string {
  if (typeof value !== 'string' || value.length < min || value.length > max || !BASE64URL.test(value)) throw AppError.invalid(MALFORMED_CREDENTIAL);
  return value;
}

interface Parsed<T> {
  json: T;
  /** The base64url credential id. */
  id: string;
  /** clientDataJSON.challenge, base64url. */
  challenge: string;
}

function common(text: string): { json: Json; response: Json; id: string; challenge: string } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw AppError.invalid(MALFORMED_CREDENTIAL);
  }
  const json = object(parsed);
  const id = base64url(json.id, MAX_CREDENTIAL_ID);
  // Section 5.1: `id` is the base64url of `rawId`; a credential naming two ids is not one credential.
  if (json.rawId !== id || json.type !== 'public-key') throw AppError.invalid(MALFORMED_CREDENTIAL);
  const response = object(json.response);
  let clientData: Json;
  try {
    clientData = object(JSON.parse(Buffer.from(base64url(response.clientDataJSON), 'base64url').toString('utf8')));
  } catch {
    throw AppError.invalid(MALFORMED_CREDENTIAL);
  }
  const challenge = base64url(clientData.challenge, 512, 16);
  if (json.clientExtensionResults === undefined) json.clientExtensionResults = {};
  return { json, response, id, challenge };
}

export function parseRegistrationCredential(text: string): Parsed<RegistrationResponseJSON> {
  const { json, response, id, challenge } = common(text);
  base64url(response.attestationObject);
  return { json: json as unknown as RegistrationResponseJSON, id, challenge };
}

export function parseAuthenticationCredential(text: string): Parsed<AuthenticationResponseJSON> {
  const { json, response, id, challenge } = common(text);
  base64url(response.authenticatorData);
  base64url(response.signature);
  if (response.userHandle !== undefined && response.userHandle !== null) base64url(response.userHandle, 128, 0);
  return { json: json as unknown as AuthenticationResponseJSON, id, challenge };
}
