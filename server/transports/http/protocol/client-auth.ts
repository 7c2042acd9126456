/**
 * Client authentication at the OAuth endpoints (RFC 6749 section 2.3). The refresh grant and revocation are
 * open to public clients (the browser SDK sends client_id only, or nothing), so credentials are optional
 * there; but what is presented must be right: an unknown client_id, or a wrong client_secret, is
 * invalid_client (RFC 6749 section 5.2). The secret may come as HTTP Basic (client_secret_basic) or in the
 * body (client_secret_post); a client_assertion is private_key_jwt (client-assertion.ts). Each grant decides
 * whether an unauthenticated (public) caller may use it.
 */
import type { FastifyRequest } from 'fastify';
import type { Deps } from '../../../kernel/deps.ts';
import type { ClientRow } from '../../../modules/clients/index.ts';
import { constantTimeEqual } from '../../../kernel/crypto.ts';
import { stringField, type OAuthBody } from './request-body.ts';
import { authenticateByAssertion, CLIENT_ASSERTION_TYPE, PRIVATE_KEY_JWT_SERVED } from './client-assertion.ts';

/** token_endpoint_auth_methods_supported (RFC 8414 section 2): what authenticateClient accepts. */
export const CLIENT_AUTH_METHODS: readonly string[] = [
  'client_secret_basic', 'client_secret_post', ...(PRIVATE_KEY_JWT_SERVED ? ['private_key_jwt'] : []), 'none',
];

export type ClientAuthMethod = 'client_secret_basic' | 'client_secret_post' | 'private_key_jwt' | 'none';

export interface AuthenticatedClient {
  /** The client_id: the instance client's, or a registered client's. */
  readonly clientId: string;
  /** The registered client's row; undefined for the instance client. */
  readonly registered?: ClientRow;
  /** How it proved itself; 'none' when it presented no credential (a public client). */
  readonly method: ClientAuthMethod;
}

export type ClientCheck =
  | { ok: true; client: AuthenticatedClient }
  | { ok: false; description: string; usedBasic: boolean };

function basicCredentials(request: FastifyRequest): { id: string; secret: string } | undefined {
  const header = request.headers.authorization;
  const match = typeof header === 'string' ? /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header) : null;
  if (!match) return undefined;
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return undefined;
  // RFC 6749 section 2.3.1: both parts are form-urlencoded before being joined.
  const decode = (part: string) => {
    try {
      return decodeURIComponent(part.replace(/\+/g, ' '));
    } catch {
      return part;
    }
  };
  return { id: decode(decoded.slice(0, colon)), secret: decode(decoded.slice(colon + 1)) };
}

export async function authenticateClient(deps: Deps, request: FastifyRequest, body: OAuthBody): Promise<ClientCheck> {
  const { config } = deps;
  const basic = basicCredentials(request);
  const usedBasic = basic !== undefined;
  const bodyId = stringField(body, 'client_id');
  if (basic && bodyId !== undefined && bodyId !== basic.id) {
    return { ok: false, description: 'client_id in the body differs from the Authorization header', usedBasic };
  }
  const assertion = stringField(body, 'client_assertion');
  if (assertion !== undefined || stringField(body, 'client_assertion_type') !== undefined) {
    if (usedBasic || stringField(body, 'client_secret') !== undefined) {
      // RFC 6749 section 2.3: a client must not use more than one authentication method in a request.
      return { ok: false, description: 'more than one client authentication method', usedBasic };
    }
    if (stringField(body, 'client_assertion_type') !== CLIENT_ASSERTION_TYPE || !assertion) {
      return { ok: false, description: `client_assertion_type must be ${CLIENT_ASSERTION_TYPE} with a client_assertion`, usedBasic };
    }
    return authenticateByAssertion(deps, assertion, bodyId);
  }
  const clientId = basic?.id ?? bodyId;
  if (clientId !== undefined && !constantTimeEqual(clientId, config.clientId ?? '')) {
    return { ok: false, description: 'unknown client_id', usedBasic };
  }
  const secret = basic?.secret ?? stringField(body, 'client_secret');
  if (secret !== undefined && !constantTimeEqual(secret, config.clientSecret ?? '')) {
    return { ok: false, description: 'client authentication failed', usedBasic };
  }
  const method: ClientAuthMethod = secret === undefined ? 'none' : usedBasic ? 'client_secret_basic' : 'client_secret_post';
  return { ok: true, client: { clientId: config.clientId ?? '', method } };
}
