/**
 * Admin operations of initial access tokens (RFC 7591 section 3; docs/openid-connect-clients.md#dynamic-client-registration):
 * `_create_initial_access_token` (the token shown this once), `_initial_access_tokens` (never the token or
 * its digest) and `_revoke_initial_access_token`, over GraphQL, REST and gRPC from these definitions. They
 * matter only with --dynamic-registration initial-token.
 */
import { defineOperation } from '../../ops/define.ts';
import { MessageResponse, NoInput, s } from '../../ops/schema.ts';
import { unixSeconds } from '../users/index.ts';
import type { InitialAccessTokenRow } from './initial-access-token.entity.ts';
import {
  MAX_INITIAL_TOKEN_SECONDS, issueInitialAccessToken, listInitialAccessTokens, revokeInitialAccessToken,
} from './initial-access-tokens.ts';

const InitialAccessTokenSchema = s.object('InitialAccessToken', {
  id: s.string(),
  description: s.string(),
  created_at: s.int64(),
  expires_at: s.int64(),
  uses_left: s.optional(s.int({ description: 'registrations it may still make; absent: no limit until it expires' })),
});

const CreateInitialAccessTokenRequest = s.object('CreateInitialAccessTokenRequest', {
  description: s.optional(s.string({ maxLength: 255 })),
  expires_in_seconds: s.int({ minimum: 1, maximum: MAX_INITIAL_TOKEN_SECONDS, description: 'seconds until the token expires' }),
  uses: s.optional(s.int({ minimum: 1, description: 'registrations it allows; omitted: any number until it expires' })),
});

const IssuedInitialAccessToken = s.object('IssuedInitialAccessToken', {
  initial_access_token: InitialAccessTokenSchema,
  token: s.string({ description: 'the Bearer token for POST /oauth/register, shown only in this answer' }),
});

const InitialAccessTokens = s.object('InitialAccessTokens', {
  initial_access_tokens: s.list(InitialAccessTokenSchema),
});

const InitialAccessTokenIdRequest = s.object('InitialAccessTokenIdRequest', {
  id: s.string({ minLength: 1, maxLength: 64 }),
});

function toPublic(row: InitialAccessTokenRow) {
  return {
    id: row.id,
    description: row.description,
    created_at: unixSeconds(row.createdAt)!,
    expires_at: unixSeconds(row.expiresAt)!,
    ...(row.usesLeft !== null && row.usesLeft !== undefined ? { uses_left: row.usesLeft } : {}),
  };
}

export const createInitialAccessTokenOp = defineOperation({
  name: 'create_initial_access_token',
  admin: true,
  kind: 'mutation',
  description: 'Issues an initial access token for dynamic client registration (--dynamic-registration initial-token); the token is shown this once',
  input: CreateInitialAccessTokenRequest,
  output: IssuedInitialAccessToken,
  auth: 'admin',
  handler: async (input, ctx) => {
    const { row, token } = await issueInitialAccessToken(ctx.em, ctx.deps.clock.now(), input);
    return { initial_access_token: toPublic(row), token };
  },
});

export const initialAccessTokensOp = defineOperation({
  name: 'initial_access_tokens',
  admin: true,
  kind: 'query',
  description: 'Lists initial access tokens, newest first (never the tokens themselves)',
  input: NoInput,
  output: InitialAccessTokens,
  auth: 'admin',
  handler: async (_input, ctx) => ({ initial_access_tokens: (await listInitialAccessTokens(ctx.em)).map(toPublic) }),
});

export const revokeInitialAccessTokenOp = defineOperation({
  name: 'revoke_initial_access_token',
  admin: true,
  kind: 'mutation',
  description: 'Revokes an initial access token: it registers no more clients (clients it registered stay)',
  input: InitialAccessTokenIdRequest,
  output: MessageResponse,
  auth: 'admin',
  handler: async (input, ctx) => {
    await revokeInitialAccessToken(ctx.em, input.id);
    return { message: 'initial access token revoked' };
  },
});

export const initialAccessTokenOperations = [createInitialAccessTokenOp, initialAccessTokensOp, revokeInitialAccessTokenOp];
