/**
 * POST /oauth/revoke (specification part 4.3 "/oauth/revoke body"; RFC 7009): revokes a refresh token and
 * the tokens of its family. Answers 200 {message} whether or not the token was live (RFC 7009 section 2.2),
 * so the endpoint tells nobody which tokens exist. The RFC's `token` parameter is accepted as well as the
 * specification's `refresh_token`. Exempt from the CSRF rule (security.ts).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../../kernel/deps.ts';
import { revokeRefreshToken } from '../../../modules/tokens/index.ts';
import { authenticateClient } from './client-auth.ts';
import { noStore, sendInvalidClient, sendOAuthError } from './oauth-errors.ts';
import { readOAuthBody, stringField } from './request-body.ts';

export const REVOKED_MESSAGE = 'Token revoked successfully';

export function revokeEndpoint(deps: Deps) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const body = readOAuthBody(request);
    const client = await authenticateClient(deps, request, body);
    if (!client.ok) return sendInvalidClient(reply, client.description, client.usedBasic);
    const token = stringField(body, 'refresh_token') ?? stringField(body, 'token');
    if (!token) return sendOAuthError(reply, 400, 'invalid_request', 'refresh_token is required');
    await revokeRefreshToken(deps.storage.fork(), token, deps.clock);
    return noStore(reply).status(200).send({ message: REVOKED_MESSAGE });
  };
}
