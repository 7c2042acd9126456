/**
 * SCIM endpoint tokens (docs/api-overview.md#authentication: a per-organization bearer token; docs/api-overview.md#versioning: one-time secrets are
 * shown once). A token is `scim_` and 32 random bytes in base64url: the prefix lets secret scanners and
 * people recognise a leaked one. Kept only as a domain-separated SHA-256 digest, for the reason
 * clients/client-secret.ts gives: 256 random bits need no slow hash, and a keyed hash would tie every token
 * to a rotatable server key. The digest is compared in constant time after the indexed lookup.
 */
import { hash, randomBytes, timingSafeEqual } from 'node:crypto';

export const SCIM_TOKEN_PREFIX = 'scim_';
const DIGEST_LABEL = 'portcullis/scim-token/v1:';
/** `scim_` and 43 base64url characters; anything much longer is not a token this server issued. */
const MAX_TOKEN_LENGTH = 128;

export function newScimToken(): string {
  return SCIM_TOKEN_PREFIX + randomBytes(32).toString('base64url');
}

export function scimTokenDigest(token: string): string {
  return hash('sha256', DIGEST_LABEL + token, 'hex');
}

/** Whether a presented string can be a token at all (checked before any lookup). */
export function plausibleScimToken(token: string): boolean {
  return token.startsWith(SCIM_TOKEN_PREFIX) && token.length <= MAX_TOKEN_LENGTH;
}

export function scimTokenMatches(token: string, storedDigest: string): boolean {
  const presented = Buffer.from(scimTokenDigest(token), 'hex');
  const stored = Buffer.from(storedDigest, 'hex');
  return presented.length === stored.length && timingSafeEqual(presented, stored);
}
