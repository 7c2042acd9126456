/**
 * POST /oauth/par: Pushed Authorization Requests (RFC 9126 section 2). The client authenticates as at the
 * token endpoint (client-auth.ts; the instance client may be public, with client_id alone, as there), and
 * sends the parameters it would have put on the /authorize URL. They are validated exactly as /authorize
 * validates them (authorization-request.ts, RFC 9126 section 2.1), with the authenticated client as
 * client_id, stored (pushed-requests.ts), and answered as a request_uri the browser then carries to
 * /authorize with the client_id. Refusals are RFC 6749 section 5.2 JSON (RFC 9126 section 2.3); a request
 * that /authorize would send back to the client's redirect_uri as an error is answered here with that error.
 * A DPoP proof with the push binds the code to its key (RFC 9449 section 10.1, pushedDpopJkt below).
 */
import { OAuthError, type OAuthErrorCode } from '../../kernel/oauth-error.ts';
import type { HandlerContext } from '../../ops/define.ts';
import { defineEndpoint, type EndpointRequest } from '../../ops/endpoint.ts';
import { proofKeyOfRequest } from './dpop/token-request-proof.ts';
import { requireClient } from './client-auth.ts';
import { findAuthorizeClient } from './authorize-client.ts';
import { parseAuthorizationRequest } from './authorization-request.ts';
import { stringField, type OAuthBody } from './oauth-body.ts';
import { PUSHED_REQUEST_SECONDS, storePushedRequest } from './pushed-requests.ts';

export const PAR_PATH = '/oauth/par';

/**
 * RFC 9449 section 10.1: a DPoP proof sent with the push binds the code to its key as dpop_jkt does; with both,
 * they must name the same key.
 */
async function pushedDpopJkt(ctx: HandlerContext, request: EndpointRequest, body: OAuthBody): Promise<{ dpop_jkt?: string }> {
  const proofJkt = await proofKeyOfRequest(ctx, request, PAR_PATH);
  if (!proofJkt) return {};
  const given = body.dpop_jkt;
  if (given !== undefined && given !== proofJkt) throw new OAuthError(400, 'invalid_dpop_proof', 'dpop_jkt is not the thumbprint of the DPoP proof\'s key');
  return { dpop_jkt: proofJkt };
}

export const parEndpoint = defineEndpoint({
  name: 'oauth_par',
  methods: ['POST'],
  path: PAR_PATH,
  refuseOtherMethods: true,
  csrf: { exempt: 'called by back-ends with client credentials (RFC 9126 section 2), without Origin' },
  body: 'oauth',
  errors: 'oauth',
  async handler(request, ctx) {
    const { config } = ctx.deps;
    const body = request.body;
    const client = await requireClient(ctx.deps, request, body);
    // RFC 9126 section 2.1: request_uri is not allowed in a pushed request.
    if (body.request_uri !== undefined) throw OAuthError.invalidRequest('request_uri cannot be pushed');
    const bodyClientId = stringField(body, 'client_id');
    if (bodyClientId !== undefined && bodyClientId !== client.clientId) throw OAuthError.invalidRequest('client_id differs from the authenticated client');
    const raw = { ...body, client_id: client.clientId, ...(await pushedDpopJkt(ctx, request, body)) };
    const parsed = await parseAuthorizationRequest({ config, raw, findClient: (clientId) => findAuthorizeClient(config, ctx.em, clientId) });
    if (parsed.kind === 'fatal') throw OAuthError.invalidRequest(parsed.description);
    if (parsed.kind === 'error') throw new OAuthError(400, parsed.error as OAuthErrorCode, parsed.description);
    const requestUri = await storePushedRequest(ctx.em, ctx.deps.clock.now(), client.clientId, parsed.request.params);
    // RFC 9126 section 2.2: 201 Created.
    return { kind: 'json', status: 201, body: { request_uri: requestUri, expires_in: PUSHED_REQUEST_SECONDS } };
  },
});
