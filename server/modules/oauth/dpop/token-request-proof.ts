/**
 * The DPoP proof of a token request (RFC 9449 section 5): the `DPoP` header of POST /oauth/token, checked
 * (section 4.3, modules/tokens dpop/proof.ts) for the POST method and the token endpoint's URL as --url
 * names it, never as the Host header does (a proof made for another host must not pass), and spent once
 * across instances. Absent: the request is a bearer one. Present but unusable, or sent more than once
 * (section 4.3 item 1): 400 invalid_dpop_proof.
 */
import { OAuthError } from '../../../kernel/oauth-error.ts';
import type { HandlerContext } from '../../../ops/define.ts';
import type { EndpointRequest } from '../../../ops/endpoint.ts';
import { acceptDpopProof, DpopProofError, issuerOf } from '../../tokens/index.ts';

export const DPOP_HEADER = 'dpop';

/** The one DPoP header's value, undefined when there is none; refuses a repeated one. */
export function presentedProof(request: Pick<EndpointRequest, 'headers'>): string | undefined {
  const value = request.headers[DPOP_HEADER];
  if (value === undefined) return undefined;
  // Node joins a repeated header with commas, which no compact JWS contains; proof.ts refuses that shape too.
  if (Array.isArray(value) || value.includes(',')) throw new OAuthError(400, 'invalid_dpop_proof', 'send exactly one DPoP header');
  return value.trim();
}

/**
 * The thumbprint of the key of the request's valid proof for `path` (an endpoint of this server, POST), or
 * undefined without a proof; throws invalid_dpop_proof.
 */
export async function proofKeyOfRequest(ctx: HandlerContext, request: Pick<EndpointRequest, 'headers' | 'method'>, path: string): Promise<string | undefined> {
  const proof = presentedProof(request);
  if (proof === undefined) return undefined;
  const { deps } = ctx;
  try {
    const verified = await acceptDpopProof(deps, proof, { method: request.method, uri: `${issuerOf(deps.config)}${path}`, now: deps.clock.now() });
    return verified.jkt;
  } catch (err) {
    if (err instanceof DpopProofError) throw new OAuthError(400, 'invalid_dpop_proof', err.message);
    throw err;
  }
}
