/**
 * Issuing and redeeming authorization codes (RFC 6749 sections 4.1.2 and 4.1.3; RFC 7636 section 4.6;
 * authorization-code.entity.ts). A code is 256 random bits, kept only as its SHA-256, valid 60 seconds and
 * once. Redemption consumes the code first, with one conditional update, whatever else is wrong with the
 * request: a code shown to the wrong client or with the wrong verifier has leaked and must not be tried
 * again. Showing a consumed code again revokes every token its exchange issued (RFC 6749 section 4.1.2).
 */
import { rememberSessionClient } from './backchannel/index.ts';
import { createHash } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/core';
import type { OpContext } from '../../kernel/context.ts';
import { constantTimeEqual, randomToken, sha256Hex } from '../../kernel/crypto.ts';
import { findActiveUser, findSession } from '../sessions/index.ts';
import { OFFLINE_ACCESS, revokeTokenRecords, type TokenSet, mintTokens, invalidateTokenState } from '../tokens/index.ts';
import { AuthorizationCode, type AuthorizationCodeRow } from './authorization-code.entity.ts';
import type { ResponseMode } from './authorization-response.ts';
import { codeBindingRefusal } from './dpop/authorization-binding.ts';

export const CODE_SECONDS = 60;
/** RFC 7636 section 4.1: 43 to 128 characters of [A-Z] / [a-z] / [0-9] / "-" / "." / "_" / "~". */
export const CODE_VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/;

export interface NewCode {
  clientId: string;
  redirectUri: string;
  responseMode: ResponseMode;
  codeChallenge: string;
  nonce?: string;
  scope: string[];
  resource?: string;
  /** RFC 9449 section 10: dpop_jkt of the authorization request. */
  dpopJkt?: string;
  userId: string;
  sessionId: string;
  authTime: Date;
}

export async function issueAuthorizationCode(em: EntityManager, now: Date, input: NewCode): Promise<string> {
  const code = randomToken(32);
  em.create(AuthorizationCode, {
    id: sha256Hex(code),
    ...input,
    nonce: input.nonce ?? null,
    resource: input.resource ?? null,
    dpopJkt: input.dpopJkt ?? null,
    createdAt: now,
    expiresAt: new Date(now.getTime() + CODE_SECONDS * 1000),
    usedAt: null,
    issuedTokenIds: [],
    issuedFamilyId: null,
  });
  // Expired codes of this user go now: the table holds a few live rows per user at most.
  await em.nativeDelete(AuthorizationCode, { userId: input.userId, expiresAt: { $lt: new Date(now.getTime() - CODE_SECONDS * 1000) } });
  await em.flush();
  return code;
}

export interface RedeemInput {
  code: string;
  /** The authenticated client (token endpoint); it must be the one the code was issued to. */
  clientId: string;
  /** True for a registered client (its tokens carry its client_id as aud and azp). */
  registered: boolean;
  redirectUri?: string;
  codeVerifier: string;
  /** RFC 8707 section 2.2: a resource named at the token request must be the one the code was granted for. */
  resource?: string;
  /** RFC 9449: the key thumbprint of the token request's DPoP proof, if it had one. */
  dpopJkt?: string;
  /** A client without credentials, whose refresh token the proof's key binds (RFC 9449 section 5). */
  publicClient?: boolean;
}

export type RedeemResult =
  | { ok: true; tokens: TokenSet; scope: string[] }
  | { ok: false; description: string; error?: 'invalid_target' };

/** RFC 7636 section 4.6: BASE64URL(SHA256(ASCII(code_verifier))) == code_challenge. */
function verifierMatches(verifier: string, challenge: string): boolean {
  const computed = createHash('sha256').update(verifier, 'ascii').digest('base64url');
  return constantTimeEqual(computed, challenge);
}

/**
 * Whether the token request must repeat redirect_uri (RFC 6749 section 4.1.3: it was in the authorization
 * request). One exception: a code of the instance client delivered by web_message, the client SDK's iframe
 * flow, never travelled in a URL (it was posted to the redirect origin's window) and the SDK's token request
 * carries no redirect_uri; PKCE binds that code to the SDK instance that asked for it. A redirect_uri that is
 * sent is always compared.
 */
function redirectUriRequired(row: AuthorizationCodeRow, registered: boolean): boolean {
  return registered || row.responseMode !== 'web_message';
}

function refusalOf(row: AuthorizationCodeRow, input: RedeemInput, now: Date): string | undefined {
  if (row.expiresAt.getTime() <= now.getTime()) return 'authorization code has expired';
  if (!constantTimeEqual(row.clientId, input.clientId)) return 'authorization code was issued to another client';
  if (input.redirectUri === undefined && redirectUriRequired(row, input.registered)) {
    return 'redirect_uri is required: it was part of the authorization request';
  }
  if (input.redirectUri !== undefined && input.redirectUri !== row.redirectUri) return 'redirect_uri does not match the authorization request';
  if (!verifierMatches(input.codeVerifier, row.codeChallenge)) return 'code_verifier does not match the code_challenge';
  return codeBindingRefusal(row.dpopJkt, input.dpopJkt);
}

/** RFC 6749 section 4.1.2: a code used twice; what its exchange issued is revoked, here and on every instance. */
async function revokeIssued(em: EntityManager, now: Date, row: AuthorizationCodeRow): Promise<void> {
  for (const id of row.issuedTokenIds) await revokeTokenRecords(em, now, { id });
  if (row.issuedFamilyId) await revokeTokenRecords(em, now, { familyId: row.issuedFamilyId });
  await invalidateTokenState(em, { sessionId: row.sessionId });
}

/**
 * Pass a fresh storage fork outside any transaction: the consumption of the code and the revocation on reuse
 * must commit even when the request is refused.
 */
export async function redeemAuthorizationCode(ctx: OpContext, em: EntityManager, input: RedeemInput): Promise<RedeemResult> {
  const now = ctx.deps.clock.now();
  const id = sha256Hex(input.code);
  const outcome = await em.transactional(async (tx): Promise<RedeemResult | 'unusable'> => {
    // The conditional update makes one presentation win, even when two race.
    if ((await tx.nativeUpdate(AuthorizationCode, { id, usedAt: null }, { usedAt: now })) !== 1) return 'unusable';
    const row = (await tx.findOne(AuthorizationCode, { id }))!;
    const refusal = refusalOf(row, input, now);
    if (refusal) return { ok: false, description: refusal };
    if (input.resource !== undefined && input.resource !== row.resource) {
      return { ok: false, error: 'invalid_target', description: 'resource was not part of the authorization request' };
    }
    const session = await findSession(tx, row.sessionId);
    if (!session || session.revokedAt != null) return { ok: false, description: 'the session that authorized this code has ended' };
    const user = await findActiveUser(tx, row.userId);
    if (!user) return { ok: false, description: 'user access has been revoked' };
    const familyId = row.scope.includes(OFFLINE_ACCESS) ? randomToken(24) : null;
    const tokens = await mintTokens(ctx, tx, {
      user,
      session,
      scope: row.scope,
      nonce: row.nonce ?? '',
      familyId,
      ...(input.registered ? { clientId: row.clientId } : {}),
      ...(row.resource ? { resource: row.resource } : {}),
      ...(input.dpopJkt ? { dpopJkt: input.dpopJkt } : {}),
      ...(input.dpopJkt && input.publicClient ? { refreshJkt: input.dpopJkt } : {}),
    });
    // OpenID Connect Back-Channel Logout 1.0 §2.7: the session's end notifies the clients that got tokens in it.
    if (input.registered) await rememberSessionClient(tx, now, session.id, row.clientId);
    row.issuedTokenIds = [sha256Hex(tokens.access_token), sha256Hex(tokens.id_token)];
    row.issuedFamilyId = familyId;
    return { ok: true, tokens, scope: row.scope };
  });
  if (outcome !== 'unusable') return outcome;
  const row = await em.findOne(AuthorizationCode, { id });
  if (!row) return { ok: false, description: 'invalid authorization code' };
  await revokeIssued(em, now, row);
  return { ok: false, description: 'authorization code has already been used' };
}
