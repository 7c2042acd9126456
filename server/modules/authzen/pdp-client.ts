/**
 * Who may ask the AuthZEN PDP (docs/authzen.md#authentication): a registered client with its own access token
 * from client_credentials (RFC 6749 section 4.4) whose audience names the PDP's resource indicator,
 * `<issuer>/access/v1` (RFC 8707 section 2; RFC 9068 section 4: a resource server checks that aud names it).
 * An administrator grants a client the PDP by listing that URI in its allowed_resources; the token endpoint
 * refuses the resource to any other client (invalid_target), so the audience is the grant.
 *
 * Refused, as unauthenticated (401 with a Bearer challenge on the REST endpoints): no token; a token that
 * does not verify or has expired; a user's token, whatever its audience (the PDP answers for services, not
 * for a user about themselves: check_permissions is that); a client token for another audience; a
 * sender-constrained token (cnf, RFC 9449 section 6), since the PDP takes bearer tokens only; and the token
 * of a client deactivated or deleted since (the same liveness introspection applies, at most a few seconds stale).
 * The token is an AuthZEN "authentication for the Authorization API" choice of AuthZEN 1.0 section 2, which
 * recommends OAuth 2.0.
 */
import { AppError } from '../../kernel/errors.ts';
import { sha256Hex } from '../../kernel/crypto.ts';
import type { Caller, OpContext } from '../../kernel/context.ts';
import type { Config } from '../../config/flags.ts';
import type { Authenticator } from '../../ops/auth.ts';
import { ANY_CLIENT, issuerOf, verifyToken } from '../tokens/index.ts';
import { isActiveClientId } from '../clients/index.ts';
import { isClientCredentialsToken } from '../oauth/index.ts';

/** The base path of the PDP's endpoints (AuthZEN 1.0 section 4: version 1.0 endpoints include `v1`). */
export const PDP_BASE_PATH = '/access/v1';
/** Longer than any token this server signs; longer ones are not read. */
const MAX_TOKEN_LENGTH = 16_384;

/** The resource indicator a client asks a PDP token for, and the audience the PDP accepts. */
export function pdpResource(config: Pick<Config, 'url'>): string {
  return `${issuerOf(config)}${PDP_BASE_PATH}`;
}

function audiences(aud: unknown): string[] {
  if (Array.isArray(aud)) return aud.filter((value): value is string => typeof value === 'string');
  return typeof aud === 'string' ? [aud] : [];
}

/** The `pdp_client` auth kind: a live client's client_credentials token for the PDP, else unauthenticated. */
export const pdpClientAuthenticator: Authenticator = async (ctx: OpContext): Promise<Caller> => {
  const { deps } = ctx;
  const resource = pdpResource(deps.config);
  const token = ctx.credentials.bearer;
  if (!token) throw AppError.unauthenticated(`a bearer access token is required: client_credentials with resource=${resource}`);
  if (token.length > MAX_TOKEN_LENGTH) throw AppError.unauthenticated('invalid token');
  const claims = await verifyToken(deps, token, 'access_token', ANY_CLIENT, sha256Hex(token));
  if (!isClientCredentialsToken(claims)) {
    throw AppError.unauthenticated('invalid token: the PDP takes a client\'s own token from client_credentials, not a user\'s');
  }
  if (!audiences(claims.aud).includes(resource)) {
    throw AppError.unauthenticated(`invalid token: its audience is not this PDP; ask for resource=${resource}`);
  }
  if (claims.cnf !== undefined) throw AppError.unauthenticated('invalid token: the token is sender-constrained; the PDP takes bearer tokens only');
  const clientId = String(claims.client_id);
  if (!(await isActiveClientId(deps.storage, clientId, deps.clock.now()))) throw AppError.unauthenticated('invalid token');
  return { kind: 'client', clientId };
};

