import { sha256Hex } from '../../kernel/crypto.ts';

/**
 * The `sid` claim of a session (OpenID Connect Front-Channel Logout 1.0 §3 and Back-Channel Logout 1.0 §2.4):
 * a digest of sessions.id, so that relying parties can match a logout token to the ID token of the same
 * session without ever seeing the row's key (itself the digest of the cookie's token).
 */
export function sidOf(sessionId: string): string {
  return sha256Hex(`sid:${sessionId}`);
}
