/**
 * POST /oauth/token (docs/api-overview.md#http-endpoints-outside-v1; RFC 6749 section 3.2): authenticates the client
 * (modules/oauth/client-auth.ts), then runs the grant named by grant_type (grants/). grant_type defaults to
 * authorization_code (docs/api-overview.md#parameters-of-the-oauth-and-sign-in-endpoints). Exempt from the CSRF rule
 * (security.ts): back-ends call it without Origin.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../../kernel/deps.ts';
import { grantNamed } from './grants/index.ts';
import { sendInvalidClient, sendOAuthError } from './oauth-errors.ts';
import { authenticateClient, readOAuthBody, stringField } from '../../../modules/oauth/index.ts';

export function tokenEndpoint(deps: Deps) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const body = readOAuthBody(request.body);
    const client = await authenticateClient(deps, request, body);
    if (!client.ok) return sendInvalidClient(reply, client.description, client.usedBasic);
    const grantType = stringField(body, 'grant_type') ?? 'authorization_code';
    const grant = grantNamed(grantType);
    if (!grant) return sendOAuthError(reply, 400, 'unsupported_grant_type', `unsupported grant_type ${JSON.stringify(grantType.slice(0, 64))}`);
    return grant.handle({ deps, request, reply, body, client: client.client });
  };
}
