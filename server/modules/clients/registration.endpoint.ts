/**
 * Dynamic client registration (RFC 7591) at POST /oauth/register and its management (RFC 7592) at
 * GET/PUT/DELETE /oauth/register/:client_id, mounted only when --dynamic-registration is not off
 * (docs/openid-connect-clients.md#dynamic-client-registration):
 * - initial-token: the request carries an initial access token as a Bearer (RFC 7591 section 3) that an admin
 *   issued with create_initial_access_token; each registration spends one of its uses;
 * - open: anyone may register, a public client only (registration-metadata.ts), at most client_registration's
 *   allowance of registrations per IP (modules/limits/policies.ts), in either mode.
 * The registration access token a registration answers is accepted only by the management endpoint, for its
 * own client (its audience): it is an opaque random string whose digest is on the client row, never a JWT,
 * so no first-party API or resource takes it as an access token. Refusals are RFC 7591 section 3.2.2 and RFC
 * 6750 section 3 JSON, as OAuth errors.
 */
import type { Config } from '../../config/flags.ts';
import type { Deps } from '../../kernel/deps.ts';
import { AppError } from '../../kernel/errors.ts';
import { OAuthError } from '../../kernel/oauth-error.ts';
import { clientKey } from '../limits/index.ts';
import { defineEndpoint, type EndpointRequest } from '../../ops/endpoint.ts';
import { deleteClient } from './clients.service.ts';
import { spendInitialAccessToken } from './initial-access-tokens.ts';
import { checkedRegistrationMetadata, type RegistrationMode } from './registration-metadata.ts';
import { clientInformation, registerDynamicClient, requireRegisteredClient, updateDynamicClient } from './registration.service.ts';

export const REGISTRATION_PATH = '/oauth/register';

function modeOf(config: Pick<Config, 'dynamicRegistration'>): RegistrationMode | undefined {
  const mode = config.dynamicRegistration;
  return mode === 'open' || mode === 'initial-token' ? mode : undefined;
}

const enabled = (deps: Deps): boolean => modeOf(deps.config) !== undefined;

/** The Bearer token of the Authorization header (RFC 6750 section 2.1), if any. */
function bearerToken(request: EndpointRequest): string | undefined {
  const header = request.headers.authorization;
  const match = typeof header === 'string' ? /^Bearer\s+([A-Za-z0-9\-._~+/]+=*)\s*$/i.exec(header) : null;
  return match?.[1];
}

function registrationClientUri(config: Pick<Config, 'url'>, clientId: string): string {
  return `${(config.url ?? '').replace(/\/+$/, '')}${REGISTRATION_PATH}/${encodeURIComponent(clientId)}`;
}

/** Clients that call these endpoints are programs, not pages: they send no Origin and authenticate by Bearer or not at all. */
const CSRF = { exempt: 'called by client software without Origin; a JSON body, an initial or registration access token, or open registration of a public client only' };

const NO_STORE = { 'cache-control': 'no-store', pragma: 'no-cache' };

/**
 * Counts a registration about to be written against the client_registration allowance of the IP (refused
 * metadata writes nothing and is not counted); once spent, 429 with Retry-After (RFC 6585 section 4) in the
 * OAuth error shape, temporarily_unavailable being the RFC 6749 code for "try again later".
 */
async function spendRegistrationAllowance(deps: Deps, ip: string): Promise<void> {
  try {
    await deps.limits.consume('client_registration', clientKey(ip));
  } catch (err) {
    if (!(err instanceof AppError) || err.kind !== 'too_many_requests') throw err;
    const refusal = new OAuthError(429, 'temporarily_unavailable', err.message);
    refusal.retryAfterSeconds = err.retryAfterSeconds;
    throw refusal;
  }
}

export const registrationEndpoint = defineEndpoint({
  name: 'oauth_register',
  methods: ['POST'],
  path: REGISTRATION_PATH,
  refuseOtherMethods: true,
  enabled,
  csrf: CSRF,
  body: 'json',
  errors: 'oauth',
  transaction: true,
  async handler(request, ctx) {
    const { config, clock } = ctx.deps;
    const mode = modeOf(config)!;
    const now = clock.now();
    if (mode === 'initial-token') {
      const token = bearerToken(request);
      if (!token) throw new OAuthError(401, 'invalid_token', 'an initial access token is required (Authorization: Bearer)', 'Bearer');
      if (!(await spendInitialAccessToken(ctx.em, token, now))) {
        throw new OAuthError(401, 'invalid_token', 'the initial access token is unknown, expired, revoked or used up', 'Bearer error="invalid_token"');
      }
    }
    const metadata = checkedRegistrationMetadata(request.document, mode, config.trustedIssuerAllowPrivateAddresses, config.webhookAllowPrivateAddresses);
    await spendRegistrationAllowance(ctx.deps, request.ip);
    const { client, secret, registrationToken } = await registerDynamicClient(ctx.em, now, metadata);
    // RFC 7591 section 3.2.1: 201 Created with the client information.
    return {
      kind: 'json',
      status: 201,
      body: clientInformation(client, registrationClientUri(config, client.clientId), { secret, registrationToken }),
      headers: NO_STORE,
    };
  },
});

export const registrationManagementEndpoint = defineEndpoint({
  name: 'oauth_register_management',
  methods: ['GET', 'PUT', 'DELETE'],
  path: `${REGISTRATION_PATH}/:client_id`,
  refuseOtherMethods: true,
  enabled,
  csrf: CSRF,
  body: 'json',
  errors: 'oauth',
  transaction: true,
  async handler(request, ctx) {
    const { config, clock } = ctx.deps;
    const clientId = request.params.client_id ?? '';
    const client = await requireRegisteredClient(ctx.em, clientId, bearerToken(request));
    const uri = registrationClientUri(config, client.clientId);
    if (request.method === 'DELETE') {
      // RFC 7592 section 2.3: 204 No Content; the client's tokens end with it (introspection finds no client).
      await deleteClient(ctx.em, client.id);
      return { kind: 'empty', status: 204, headers: NO_STORE };
    }
    if (request.method === 'PUT') {
      const document = request.document as Record<string, unknown> | undefined;
      // RFC 7592 section 2.2: the request names the client it updates.
      if (document && typeof document === 'object' && document.client_id !== client.clientId) {
        throw new OAuthError(400, 'invalid_client_metadata', 'client_id in the body must be this client\'s');
      }
      const metadata = checkedRegistrationMetadata(document, modeOf(config)!, config.trustedIssuerAllowPrivateAddresses, config.webhookAllowPrivateAddresses);
      await updateDynamicClient(ctx.em, clock.now(), client, metadata);
    }
    return { kind: 'json', body: clientInformation(client, uri), headers: NO_STORE };
  },
});
