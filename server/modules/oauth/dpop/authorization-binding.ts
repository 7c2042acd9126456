/**
 * dpop_jkt (RFC 9449 section 10): a client binds the authorization code to its DPoP key at /authorize (and
 * at /oauth/par, which validates the same parameters) by the key's JWK SHA-256 thumbprint (RFC 7638). The
 * token request that redeems the code must then carry a proof made with that key, or it is invalid_grant
 * (section 10.1). The code flow only: an implicit answer has no token request to carry a proof.
 */

/** base64url of a SHA-256 digest: 43 characters. */
const THUMBPRINT = /^[A-Za-z0-9_-]{43}$/;

export type DpopJktCheck = { ok: true; jkt?: string } | { ok: false; description: string };

/** The dpop_jkt parameter, when given, checked for its shape and its response type. */
export function dpopJktParameter(value: string | undefined, responseType: string): DpopJktCheck {
  if (value === undefined) return { ok: true };
  if (!THUMBPRINT.test(value)) return { ok: false, description: 'dpop_jkt must be a JWK SHA-256 thumbprint (43 base64url characters)' };
  if (responseType !== 'code') return { ok: false, description: 'dpop_jkt binds an authorization code: use response_type code' };
  return { ok: true, jkt: value };
}

/** Why a code bound to `bound` cannot be redeemed with a proof of `presented`, or undefined when it can. */
export function codeBindingRefusal(bound: string | null | undefined, presented: string | undefined): string | undefined {
  if (!bound) return undefined;
  if (!presented) return 'the authorization code is bound to a DPoP key (dpop_jkt): send a DPoP proof made with it';
  return presented === bound ? undefined : 'the DPoP proof was made with another key than the dpop_jkt of the authorization request';
}
