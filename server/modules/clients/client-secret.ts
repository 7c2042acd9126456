/**
 * Client identifiers and secrets: generation, the digest kept at rest, and the check the token endpoint
 * will make (docs/api-overview.md#authentication, "client credentials").
 *
 * Why a plain SHA-256 and not a password hash or an HMAC: the secret is 32 bytes from the CSPRNG (256 bits),
 * never chosen by a person, so a stolen digest cannot be reversed by guessing; a slow hash defends low-entropy
 * passwords and would only cost CPU on every client authentication (OWASP ASVS 2.9.2 / 2.4: slow hashing is
 * for user-chosen passwords; NIST SP 800-63B 5.1.1.2 lets a high-entropy secret be stored under an approved
 * one-way function). A keyed hash would tie every stored secret to --jwt-secret or --encryption-key, so
 * rotating those would silently break every client. The digest is domain-separated by a label so that it can
 * never equal another digest this server stores of the same bytes (session ids, token records).
 * Comparison is in constant time (OWASP ASVS 2.9.3 / 6.2: no timing side channel on secrets).
 */
import { hash, randomBytes, timingSafeEqual } from 'node:crypto';

const SECRET_LABEL = 'portcullis/client-secret/v1:';
/** 32 bytes base64url encode to 43 characters; anything much longer is not a secret this server issued. */
export const MAX_PRESENTED_SECRET_LENGTH = 256;

/** A new public client identifier: 18 random bytes, 24 base64url characters. */
export function newClientId(): string {
  return randomBytes(18).toString('base64url');
}

/** A new client secret: 32 random bytes, base64url (shown once, at create or rotate). */
export function newClientSecret(): string {
  return randomBytes(32).toString('base64url');
}

export function clientSecretDigest(secret: string): string {
  return hash('sha256', SECRET_LABEL + secret, 'hex');
}

/** Whether `secret` is the one whose digest is `storedDigest`, in time independent of where they differ. */
export function secretMatchesDigest(secret: string, storedDigest: string | null | undefined): boolean {
  if (!storedDigest || secret.length === 0 || secret.length > MAX_PRESENTED_SECRET_LENGTH) return false;
  const presented = Buffer.from(clientSecretDigest(secret), 'hex');
  const stored = Buffer.from(storedDigest, 'hex');
  return presented.length === stored.length && timingSafeEqual(presented, stored);
}
