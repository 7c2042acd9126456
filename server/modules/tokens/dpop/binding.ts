/**
 * Tokens bound to a DPoP key (RFC 9449 section 6): an access token (and a public client's refresh token,
 * section 5) carries cnf.jkt, the thumbprint of the key whose proofs must come with it. Here: reading that
 * binding, spending a verified proof once, and the check a resource makes of a presented token and proof
 * (section 7.1), which /userinfo and validate_jwt_token share (docs/dpop.md).
 */
import type { Deps } from '../../../kernel/deps.ts';
import { consumeDpopProofId } from './proof-replay.ts';
import { DPOP_PROOF_WINDOW_SECONDS, DpopProofError, verifyDpopProof, type ProofExpectations, type VerifiedProof } from './proof.ts';

/** The cnf claim of a token bound to `jkt` (section 6.1). */
export function confirmationOf(jkt: string): { cnf: { jkt: string } } {
  return { cnf: { jkt } };
}

/** The jkt a token's verified claims bind it to, or undefined for a bearer token. */
export function boundKeyOf(claims: Record<string, unknown>): string | undefined {
  const cnf = claims.cnf;
  if (typeof cnf !== 'object' || cnf === null) return undefined;
  const jkt = (cnf as Record<string, unknown>).jkt;
  return typeof jkt === 'string' && jkt !== '' ? jkt : undefined;
}

/** The token_type of a token response (section 5: DPoP for a bound access token, RFC 6750 Bearer otherwise). */
export function tokenTypeFor(jkt: string | undefined): 'DPoP' | 'Bearer' {
  return jkt ? 'DPoP' : 'Bearer';
}

/**
 * Verifies the proof and spends its jti (section 11.1), across instances; throws DpopProofError for a proof
 * that fails a check or was presented before.
 */
export async function acceptDpopProof(deps: Pick<Deps, 'storage'>, proof: string, expected: ProofExpectations): Promise<VerifiedProof> {
  const verified = await verifyDpopProof(proof, expected);
  // Remembered until iat can no longer be accepted, plus a second for rounding.
  const keepUntil = new Date((verified.iat + DPOP_PROOF_WINDOW_SECONDS + 1) * 1000);
  if (!(await consumeDpopProofId(deps.storage.fork(), deps, verified.jkt, verified.jti, keepUntil, expected.now))) {
    throw new DpopProofError('the DPoP proof was already used (jti replay): make a fresh proof for each request');
  }
  return verified;
}

/** What a resource was shown besides the token: the DPoP proof and the request it came with. */
export interface PresentedProof {
  readonly proof?: string;
  readonly method?: string;
  readonly uri?: string;
}

/** Why a resource refuses a token for its binding (section 7.1): the token, or the proof. */
export class BindingRefusal extends DpopProofError {
  readonly about: 'token' | 'proof';

  constructor(about: 'token' | 'proof', message: string) {
    super(message);
    this.name = 'BindingRefusal';
    this.about = about;
  }
}

/**
 * Refuses a DPoP-bound token presented without a proof, as a bearer token (section 7.2: a bound token is
 * not a bearer token); synchronous, for the acceptors that answer from memory or take bearer tokens only.
 */
export function refuseBoundAsBearer(claims: Record<string, unknown>): void {
  if (boundKeyOf(claims)) throw new BindingRefusal('token', 'the access token is DPoP-bound: present it with the DPoP scheme and a DPoP proof of its key');
}

/**
 * The resource's check (section 7.1): a bound token needs a proof for this request, made with its key and
 * for this very token (ath); a bearer token needs none, and one that comes with a proof was presented as
 * DPoP (`asDpop`) when it is not bound, which is refused too. Throws BindingRefusal.
 */
export async function requireProofOfPossession(
  deps: Pick<Deps, 'storage' | 'clock'>, token: string, claims: Record<string, unknown>, presented: PresentedProof, asDpop: boolean,
): Promise<void> {
  const jkt = boundKeyOf(claims);
  if (!jkt) {
    if (asDpop) throw new BindingRefusal('token', 'the access token is not DPoP-bound: present it as a Bearer token');
    return;
  }
  if (!asDpop) refuseBoundAsBearer(claims);
  if (!presented.proof) throw new BindingRefusal('proof', 'a DPoP proof is required with a DPoP-bound access token');
  if (!presented.method || !presented.uri) throw new BindingRefusal('proof', 'the HTTP method and URI of the request are required to check the DPoP proof');
  let verified: VerifiedProof;
  try {
    verified = await acceptDpopProof(deps, presented.proof, { method: presented.method, uri: presented.uri, accessToken: token, now: deps.clock.now() });
  } catch (err) {
    if (err instanceof DpopProofError) throw new BindingRefusal('proof', err.message);
    throw err;
  }
  if (verified.jkt !== jkt) throw new BindingRefusal('proof', 'the DPoP proof was made with another key than the one the access token is bound to');
}
