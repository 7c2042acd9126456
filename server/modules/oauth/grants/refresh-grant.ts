/**
 * grant_type=refresh_token (RFC 6749 section 6): the refresh token is rotated (docs/tokens.md) and the
 * answer is the token response of RFC 6749 section 5.1, with expires_in in seconds
 * (docs/sdk-compatibility.md).
 */
import { AppError } from '../../../kernel/errors.ts';
import { OAuthError } from '../../../kernel/oauth-error.ts';
import { InvalidScopeError, InvalidTargetError, refreshTokens, tokenTypeFor } from '../../tokens/index.ts';
import { scopeField, stringField } from '../oauth-body.ts';
import type { Grant } from './grant.ts';

export const refreshGrant: Grant = {
  grantType: 'refresh_token',
  async handle({ ctx, body, client, dpopJkt }) {
    const refreshToken = stringField(body, 'refresh_token');
    if (!refreshToken) throw OAuthError.invalidRequest('refresh_token is required');
    try {
      // The endpoint's unit of work is outside any transaction: a detected reuse must commit its revocation.
      const tokens = await refreshTokens(ctx, ctx.em, refreshToken, {
        scope: scopeField(body),
        // RFC 8707 section 2.2: one of the resources originally granted (the refresh token's).
        resource: stringField(body, 'resource'),
        // undefined for the instance client: its tokens carry no azp.
        clientId: client.registered ? client.clientId : undefined,
        ...(dpopJkt ? { dpopJkt } : {}),
        publicClient: client.method === 'none',
      });
      return {
        access_token: tokens.access_token,
        token_type: tokenTypeFor(dpopJkt),
        expires_in: tokens.expires_in,
        id_token: tokens.id_token,
        refresh_token: tokens.refresh_token,
        scope: tokens.scope.join(' '),
      };
    } catch (err) {
      if (err instanceof InvalidScopeError) throw new OAuthError(400, 'invalid_scope', err.message);
      if (err instanceof InvalidTargetError) throw new OAuthError(400, 'invalid_target', err.message);
      // RFC 6749 section 5.2: an invalid, expired, revoked or reused refresh token is invalid_grant.
      if (err instanceof AppError && err.kind === 'unauthenticated') throw new OAuthError(400, 'invalid_grant', err.message);
      throw err;
    }
  },
};
