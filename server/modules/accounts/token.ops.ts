/**
 * revoke, validate_jwt_token and validate_session (docs/operations.md). Validation checks the
 * signature, issuer, audience, expiry and the stored record, so a logged-out or revoked token fails at once.
 */
import { defineOperation } from '../../ops/define.ts';
import { MessageResponse } from '../../ops/schema.ts';
import { AppError } from '../../kernel/errors.ts';
import { presentedSession } from '../../kernel/cookies.ts';
import { heldRoles, toPublicUser } from '../users/index.ts';
import type { Deps } from '../../kernel/deps.ts';
import {
  ANY_CLIENT, checkIssuedToken, checkIssuedTokenInMemory, currentRolesOf, revokeRefreshToken, validateSessionToken, withCurrentRoles, TOKEN_TYPES, type Claims, type TokenType,
  refuseBoundAsBearer, requireProofOfPossession,
} from '../tokens/index.ts';
import {
  RevokeRequest, ValidateJWTTokenRequest, ValidateJWTTokenResponse, ValidateSessionRequest, ValidateSessionResponse,
} from './accounts.schema.ts';
import { requireRelations, subjectOfClaims } from '../fga/index.ts';

/**
 * Every asked role must be among the roles the token or session was granted AND the user holds now
 * (OWASP ASVS 4.2.1: decided on current server-side state), so removing a role fails validation at once.
 */
function audiencesOf(claims: Claims): string[] {
  return typeof claims.aud === 'string' ? [claims.aud] : Array.isArray(claims.aud) ? claims.aud.filter((a): a is string => typeof a === 'string') : [];
}

function requireRoles(roles: readonly string[], asked: readonly string[] | undefined): void {
  if (!asked?.length) return;
  const missing = asked.filter((role) => !roles.includes(role));
  if (missing.length > 0) throw AppError.forbidden(`missing roles: ${missing.join(', ')}`);
}

export const revokeOp = defineOperation({
  name: 'revoke',
  admin: false,
  kind: 'mutation',
  description: 'Revokes a refresh token and the rest of its family',
  input: RevokeRequest,
  output: MessageResponse,
  auth: 'public',
  handler: async (input, ctx) => {
    // RFC 7009 section 2.2: an unknown or already invalid token is not an error for the caller.
    await revokeRefreshToken(ctx.em, input.refresh_token, ctx.deps.clock);
    return { message: 'Token revoked successfully' };
  },
});

export const validateJwtTokenOp = defineOperation({
  name: 'validate_jwt_token',
  admin: false,
  kind: 'query',
  description: 'Validates an access, ID or refresh token issued by this server, optionally requiring roles and relations',
  input: ValidateJWTTokenRequest,
  output: ValidateJWTTokenResponse,
  auth: 'public',
  handler: async (input, ctx) => {
    if (!(TOKEN_TYPES as readonly string[]).includes(input.token_type)) {
      throw AppError.invalid(`token_type must be one of ${TOKEN_TYPES.join(', ')}`);
    }
    // Resource servers check the tokens of every client of this server (modules/tokens/audience.ts).
    const issued = await checkIssuedToken(ctx, input.token, input.token_type as TokenType, ANY_CLIENT);
    // RFC 9449 section 7.1 (docs/dpop.md): a DPoP-bound token passes only with a proof of its key for the
    // resource server's request; a proof given with a bearer token means it was presented as DPoP.
    const presented = { proof: input.dpop_proof, method: input.http_method, uri: input.http_uri };
    await requireProofOfPossession(ctx.deps, input.token, issued.claims, presented, input.dpop_proof !== undefined);
    // RFC 9068 section 4: a resource server refuses a token whose aud does not name it.
    if (input.audience !== undefined && !audiencesOf(issued.claims).includes(input.audience)) {
      throw AppError.unauthenticated('the token is not for this audience');
    }
    const roleClaim = ctx.deps.config.jwtRoleClaim;
    requireRoles(currentRolesOf(issued, roleClaim), input.roles);
    const claims = withCurrentRoles(issued, roleClaim);
    // The token's subject, and its agent when an `act` claim says an agent holds it (docs/errors.md#messages-worth-knowing).
    await requireRelations(ctx.deps, subjectOfClaims(claims), input.required_relations, ctx.permissionChecks);
    return { is_valid: true, claims };
  },
});

/**
 * validate_jwt_token's answer to an input of only token_type and token (no roles, no required_relations:
 * nothing to require), synchronously from memory (checkIssuedTokenInMemory), or undefined when memory does
 * not hold all the answer needs. It throws what the handler would throw. The operation is public, so there
 * is no caller to authenticate.
 */
export function validatePlainTokenInMemory(deps: Deps, tokenType: TokenType, token: string): { is_valid: true; claims: Claims } | undefined {
  const issued = checkIssuedTokenInMemory(deps, token, tokenType, ANY_CLIENT);
  // Without a proof a DPoP-bound token is refused, as the handler refuses it (RFC 9449 section 7.2).
  if (issued) refuseBoundAsBearer(issued.claims);
  return issued && { is_valid: true, claims: withCurrentRoles(issued, deps.config.jwtRoleClaim) };
}

export const validateSessionOp = defineOperation({
  name: 'validate_session',
  admin: false,
  kind: 'query',
  description: 'Validates a session cookie value, optionally requiring roles and relations',
  input: ValidateSessionRequest,
  output: ValidateSessionResponse,
  auth: 'public',
  graphql: { nullableArg: true },
  handler: async (input, ctx) => {
    const cookie = input.cookie || presentedSession(ctx.credentials.cookies);
    if (!cookie) throw AppError.unauthenticated('no session cookie given');
    const { session, user } = await validateSessionToken(ctx, cookie);
    requireRoles(heldRoles(user, session.roles), input.roles);
    await requireRelations(ctx.deps, { user: `user:${user.id}` }, input.required_relations, ctx.permissionChecks);
    return { is_valid: true, user: toPublicUser(user) };
  },
});

export const tokenOperations = [revokeOp, validateJwtTokenOp, validateSessionOp];
