/**
 * POST /oauth/token (specification part 4.3; RFC 6749 section 6). This issue serves the refresh_token grant:
 * the refresh token is rotated (reference.md "Tokens") and the answer is the token response of RFC 6749
 * section 5.1, with expires_in in seconds (reference.md "Compatibility"). The authorization_code grant
 * (the specification's default) arrives with /authorize in a later issue and is refused as unsupported
 * until then. Exempt from the CSRF rule (security.ts): back-ends call it without Origin.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../../kernel/deps.ts';
import { AppError } from '../../../kernel/errors.ts';
import { InvalidScopeError, refreshTokens } from '../../../modules/tokens/index.ts';
import { buildHttpContext } from '../request-context.ts';
import { checkClient } from './client-auth.ts';
import { noStore, sendInvalidClient, sendOAuthError } from './oauth-errors.ts';
import { readOAuthBody, scopeField, stringField } from './request-body.ts';

export function tokenEndpoint(deps: Deps) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const body = readOAuthBody(request);
    const client = checkClient(deps.config, request, body);
    if (!client.ok) return sendInvalidClient(reply, client.description, client.usedBasic);
    const grantType = stringField(body, 'grant_type') ?? 'authorization_code';
    if (grantType !== 'refresh_token') {
      const description = grantType === 'authorization_code'
        ? 'the authorization_code grant is not available on this server yet; use grant_type=refresh_token'
        : `unsupported grant_type ${JSON.stringify(grantType.slice(0, 64))}`;
      return sendOAuthError(reply, 400, 'unsupported_grant_type', description);
    }
    const refreshToken = stringField(body, 'refresh_token');
    if (!refreshToken) return sendOAuthError(reply, 400, 'invalid_request', 'refresh_token is required');

    const ctx = buildHttpContext(deps, request, 'rest');
    try {
      // A fresh unit of work outside any transaction: a detected reuse must commit its revocation.
      const tokens = await refreshTokens(ctx, deps.storage.fork(), refreshToken, { scope: scopeField(body) });
      return noStore(reply).status(200).send({
        access_token: tokens.access_token,
        token_type: 'Bearer',
        expires_in: tokens.expires_in,
        id_token: tokens.id_token,
        refresh_token: tokens.refresh_token,
        scope: tokens.scope.join(' '),
      });
    } catch (err) {
      if (err instanceof InvalidScopeError) return sendOAuthError(reply, 400, 'invalid_scope', err.message);
      // RFC 6749 section 5.2: an invalid, expired, revoked or reused refresh token is invalid_grant.
      if (err instanceof AppError && err.kind === 'unauthenticated') return sendOAuthError(reply, 400, 'invalid_grant', err.message);
      throw err;
    }
  };
}
