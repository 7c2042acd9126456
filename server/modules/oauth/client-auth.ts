/**
 * Client authentication at the OAuth endpoints (RFC 6749 section 2.3). The refresh grant and revocation are
 * open to public clients (the browser SDK sends client_id only, or nothing), so credentials are optional
 * there; but what is presented must be right: an unknown client_id, or a wrong client_secret, is
 * invalid_client (RFC 6749 section 5.2). The secret may come as HTTP Basic (client_secret_basic) or in the
 * body (client_secret_post); a client_assertion is private_key_jwt (client-assertion.ts). Each grant decides
 * whether an unauthenticated (public) caller may use it.
 *
 * Two kinds of client:
 * - the instance client (--client-id / --client-secret): public with client_id alone (the SDK), confidential
 *   with its secret, compared in constant time;
 * - a registered client (modules/clients): confidential, or public when registered so at /oauth/register
 *   (RFC 7591 token_endpoint_auth_method none: client_id alone, read from the database). A secret is checked against the stored
 *   digest, the previous one until its grace end (checkClientSecret, answered from memory for a few seconds:
 *   client-auth-cache.ts). A registered client_id without a credential is refused without reading the
 *   database, with the same answer as an unknown one, so the endpoint does not tell which client ids exist.
 *
 * Failures count in the client_auth_failure bucket per client_id and per client IP (kernel/limits.ts); once
 * either is spent, secrets are not checked at all until the window ends. A success served from the cache
 * skips the limiter: it proves the secret was verified seconds ago, and keeps the hot path free of it.
 */
import type { Deps } from '../../kernel/deps.ts';
import type { ClientRow } from '../clients/index.ts';
import { constantTimeEqual } from '../../kernel/crypto.ts';
import { AppError } from '../../kernel/errors.ts';
import { OAuthError } from '../../kernel/oauth-error.ts';
import { Client, checkClientSecret, isPublicClient, recentlyVerifiedClient } from '../clients/index.ts';
import { clientKey } from '../limits/index.ts';
import { stringField, type OAuthBody } from './oauth-body.ts';
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

/** What client authentication reads of the request: the Authorization header and the client IP. */
export interface ClientAuthRequest {
  readonly headers: { readonly authorization?: string | string[] };
  readonly ip: string;
}

function basicCredentials(request: ClientAuthRequest): { id: string; secret: string } | undefined {
  const header = request.headers.authorization;
  const match = typeof header === 'string' ? /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header) : null;
  if (!match) return undefined;
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return undefined;
  return { id: formDecoded(decoded.slice(0, colon)), secret: formDecoded(decoded.slice(colon + 1)) };
}

/**
 * One part of HTTP Basic client credentials: RFC 6749 section 2.3.1 has both parts form-urlencoded before
 * being joined. A part without '%' or '+' (as generated ids and secrets are) decodes to itself.
 */
function formDecoded(part: string): string {
  if (!part.includes('%') && !part.includes('+')) return part;
  try {
    return decodeURIComponent(part.replace(/\+/g, ' '));
  } catch {
    return part;
  }
}

export async function authenticateClient(deps: Deps, request: ClientAuthRequest, body: OAuthBody): Promise<ClientCheck> {
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
  const secret = basic?.secret ?? stringField(body, 'client_secret');
  if (usedBasic && stringField(body, 'client_secret') !== undefined) {
    return { ok: false, description: 'more than one client authentication method', usedBasic };
  }
  const method: ClientAuthMethod = secret === undefined ? 'none' : usedBasic ? 'client_secret_basic' : 'client_secret_post';
  // A client_id is an identifier, not a secret (RFC 6749 section 2.2): a plain comparison tells nothing.
  const isInstance = clientId === undefined || clientId === (config.clientId ?? '');
  if (isInstance && secret === undefined) return { ok: true, client: { clientId: config.clientId ?? '', method } };
  // From here a secret is checked (or a registered client_id came without one): the failure limit applies.
  // An over-long client_id is not one this server issued; the key stays bounded whatever is claimed.
  // Made when first needed: a success served from the cache (below) never reads the limiter.
  const failureKeysOf = (): string[] => [`id:${isInstance ? (config.clientId ?? '') : clientId!.slice(0, 64)}`, `ip:${clientKey(request.ip)}`];
  if (secret === undefined) {
    // A public client registered at /oauth/register (RFC 7591, token_endpoint_auth_method none) presents its
    // client_id alone, as the instance client may; looked up only when dynamic registration is on.
    const publicClient = config.dynamicRegistration !== 'off' ? await findPublicClient(deps, clientId!) : undefined;
    if (publicClient) return { ok: true, client: { clientId: publicClient.clientId, registered: publicClient, method } };
    return refused(deps, failureKeysOf(), usedBasic);
  }
  if (isInstance) {
    const failureKeys = failureKeysOf();
    if (await limited(deps, failureKeys)) return limitedAnswer(usedBasic);
    if (constantTimeEqual(secret, config.clientSecret ?? '')) return { ok: true, client: { clientId: config.clientId ?? '', method } };
    return refused(deps, failureKeys, usedBasic);
  }
  const now = deps.clock.now();
  const recent = recentlyVerifiedClient(deps.storage, clientId!, secret, now);
  if (recent) return { ok: true, client: { clientId: recent.clientId, registered: recent, method } };
  const failureKeys = failureKeysOf();
  if (await limited(deps, failureKeys)) return limitedAnswer(usedBasic);
  const registered = await checkClientSecret(deps.storage, clientId!, secret, now);
  if (!registered) return refused(deps, failureKeys, usedBasic);
  return { ok: true, client: { clientId: registered.clientId, registered, method } };
}

/** The active public client (isPublicClient) with this client_id, or undefined. */
async function findPublicClient(deps: Deps, clientId: string): Promise<ClientRow | undefined> {
  if (clientId.length > 64) return undefined;
  const row = await deps.storage.fork().findOne(Client, { clientId });
  return row && row.isActive && isPublicClient(row) ? row : undefined;
}

/** The authenticated client, or invalid_client (RFC 6749 section 5.2) thrown as an OAuthError. */
export async function requireClient(deps: Deps, request: ClientAuthRequest, body: OAuthBody): Promise<AuthenticatedClient> {
  const check = await authenticateClient(deps, request, body);
  if (!check.ok) throw OAuthError.invalidClient(check.description, check.usedBasic);
  return check.client;
}

/** One answer for an unknown client_id, a wrong secret and a missing one (no enumeration of client ids). */
const FAILED = 'client authentication failed';

/** Whether either failure count (this client_id, this IP) is spent; a failing limiter store does not refuse. */
async function limited(deps: Deps, keys: readonly string[]): Promise<boolean> {
  try {
    for (const key of keys) if ((await deps.limits.retryAfter('client_auth_failure', key)) > 0) return true;
  } catch (err) {
    deps.logger.error({ err }, 'client authentication failure limit unavailable');
  }
  return false;
}

function limitedAnswer(usedBasic: boolean): ClientCheck {
  return { ok: false, description: 'too many failed client authentications: try again later', usedBasic };
}

/** Counts the failure against the client_id and the IP, then refuses. */
async function refused(deps: Deps, keys: readonly string[], usedBasic: boolean): Promise<ClientCheck> {
  for (const key of keys) {
    try {
      await deps.limits.consume('client_auth_failure', key);
    } catch (err) {
      // A spent allowance shows on the next attempt (limited()); anything else is the store failing.
      if (!(err instanceof AppError)) deps.logger.error({ err }, 'client authentication failure limit unavailable');
    }
  }
  return { ok: false, description: FAILED, usedBasic };
}
