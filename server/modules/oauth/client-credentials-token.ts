/**
 * The shape of a client_credentials access token (RFC 6749 section 4.4; RFC 9068 section 2.2): sub is the
 * client itself, as client_id and azp are. The token endpoint's grant issues it; introspection
 * (introspect.endpoint.ts) checks its client is still active instead of looking for a record.
 */
import type { Claims } from '../tokens/index.ts';

/** Whether verified claims are those of a client_credentials token (sub is the client itself). */
export function isClientCredentialsToken(claims: Claims): boolean {
  return claims.token_type === 'access_token' && typeof claims.client_id === 'string' && claims.client_id !== ''
    && claims.sub === claims.client_id && claims.azp === claims.client_id;
}
