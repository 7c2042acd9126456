/**
 * DPoP (RFC 9449): proofs, their single use, and the binding of tokens to a proof's key (docs/dpop.md).
 * In tokens so that every acceptor of a token (the oauth endpoints, validate_jwt_token) checks it one way.
 */
export { DPOP_SIGNING_ALGORITHMS, DPOP_PROOF_WINDOW_SECONDS, DpopProofError, accessTokenHash, normalisedHtu, verifyDpopProof, type ProofExpectations, type VerifiedProof } from './proof.ts';
export { acceptDpopProof, boundKeyOf, confirmationOf, tokenTypeFor, requireProofOfPossession, refuseBoundAsBearer, BindingRefusal, type PresentedProof } from './binding.ts';
export { UsedDpopProof } from './used-proof.entity.ts';
