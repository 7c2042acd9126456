/**
 * POST /oauth/token (docs/api-overview.md#http-endpoints-outside-v1; RFC 6749 section 3.2): authenticates the client
 * (client-auth.ts), then runs the grant named by grant_type (grants/). grant_type defaults to
 * authorization_code (docs/api-overview.md#parameters-of-the-oauth-and-sign-in-endpoints). Exempt from the CSRF rule:
 * back-ends call it without Origin.
 */
import { OAuthError } from '../../kernel/oauth-error.ts';
import { defineEndpoint } from '../../ops/endpoint.ts';
import { requireClient } from './client-auth.ts';
import { grantNamed } from './grants/index.ts';
import { stringField } from './oauth-body.ts';
import { proofKeyOfRequest } from './dpop/token-request-proof.ts';

const TOKEN_PATH = '/oauth/token';

export const tokenEndpoint = defineEndpoint({
  name: 'oauth_token',
  methods: ['POST'],
  path: TOKEN_PATH,
  refuseOtherMethods: true,
  csrf: { exempt: 'called by back-ends with client credentials (RFC 6749 section 3.2), without Origin' },
  body: 'oauth',
  errors: 'oauth',
  async handler(request, ctx) {
    const body = request.body;
    const client = await requireClient(ctx.deps, request, body);
    const grantType = stringField(body, 'grant_type') ?? 'authorization_code';
    const grant = grantNamed(grantType);
    if (!grant) throw new OAuthError(400, 'unsupported_grant_type', `unsupported grant_type ${JSON.stringify(grantType.slice(0, 64))}`);
    // RFC 9449 section 5: with a valid DPoP proof, the access token is bound to its key.
    const dpopJkt = await proofKeyOfRequest(ctx, request, TOKEN_PATH);
    // RFC 9449 section 5.2: a client registered with dpop_bound_access_tokens always sends a proof.
    if (!dpopJkt && client.registered?.registration?.dpop_bound_access_tokens === true) {
      throw new OAuthError(400, 'invalid_dpop_proof', 'this client is registered with dpop_bound_access_tokens: send a DPoP proof');
    }
    return { kind: 'json', body: await grant.handle({ ctx, body, client, ...(dpopJkt ? { dpopJkt } : {}) }) };
  },
});
