/**
 * How a protected resource of this server (/userinfo) reads a DPoP presentation and refuses one (RFC 9449
 * section 7): the `Authorization: DPoP <token>` scheme (section 7.1), and the `WWW-Authenticate: DPoP`
 * challenge with the error (invalid_token, invalid_dpop_proof) and the algorithms a proof may use (algs).
 */
import { OAuthError } from '../../../kernel/oauth-error.ts';
import type { EndpointRequest } from '../../../ops/endpoint.ts';
import { DPOP_SIGNING_ALGORITHMS } from '../../tokens/index.ts';

/** RFC 9449 section 7.1: the token68 of the DPoP scheme, as Bearer's (RFC 6750 section 2.1). */
const DPOP_AUTHORIZATION = /^DPoP[ ]+([A-Za-z0-9\-._~+/]+=*)[ ]*$/i;

/** The token of an `Authorization: DPoP` header, or undefined for another scheme or none. */
export function dpopAuthorization(request: Pick<EndpointRequest, 'headers'>): string | undefined {
  const header = request.headers.authorization;
  if (typeof header !== 'string') return undefined;
  return DPOP_AUTHORIZATION.exec(header)?.[1];
}

/** Auth-param values are quoted strings; printable ASCII without quotes or backslashes. */
function quoted(text: string): string {
  return `"${text.replace(/[^\x20-\x7e]|["\\]/g, '')}"`;
}

/** The DPoP challenge (section 7.1): algs always, the error when there is one. */
export function dpopChallenge(error?: 'invalid_token' | 'invalid_dpop_proof', description?: string): string {
  const params: string[] = [];
  if (error) params.push(`error=${quoted(error)}`);
  if (description) params.push(`error_description=${quoted(description)}`);
  params.push(`algs=${quoted(DPOP_SIGNING_ALGORITHMS.join(' '))}`);
  return `DPoP ${params.join(', ')}`;
}

/** A 401 refusal of a DPoP presentation (section 7.1), the JSON body carrying the same error. */
export function dpopRefusal(error: 'invalid_token' | 'invalid_dpop_proof', description: string): OAuthError {
  return new OAuthError(401, error, description, dpopChallenge(error, description));
}
