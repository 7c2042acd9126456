/**
 * The token signing keys Deps carries, declared here so that the kernel imports nothing of the app
 * (docs/architecture.md#modules-and-the-registry: an interface in kernel/, implemented by a
 * module). modules/tokens/signing-keys.ts loads them from --jwt-type and its key flags.
 */
import type { KeyObject } from 'node:crypto';
import type { JWK } from 'jose';

export interface SigningKeys {
  readonly alg: string;
  readonly kid: string;
  readonly signKey: KeyObject | Uint8Array;
  readonly verifyKey: KeyObject | Uint8Array;
  /** Public keys for /.well-known/jwks.json; empty for HMAC. */
  readonly jwks: { keys: JWK[] };
}
