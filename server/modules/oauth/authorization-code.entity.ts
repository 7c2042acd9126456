import { defineEntity, p } from '@mikro-orm/core';

/**
 * An authorization code of the code flow (RFC 6749 section 4.1.2; docs/api-overview.md#parameters-of-the-oauth-and-sign-in-endpoints). The
 * code itself is never stored: the row is keyed by its SHA-256, so a database reader cannot redeem one.
 * It lives 60 seconds (RFC 6749 section 4.1.2 recommends at most 10 minutes) and is single-use: usedAt is
 * set by one conditional update, and a second presentation revokes what the first one issued
 * (issuedTokenIds, issuedFamilyId; RFC 6749 section 4.1.2 "SHOULD revoke all tokens previously issued").
 */
export const AuthorizationCode = defineEntity({
  name: 'AuthorizationCode',
  tableName: 'authorization_codes',
  properties: {
    /** sha256 hex of the code. */
    id: p.string().primary().length(64),
    clientId: p.string().length(64),
    /** The redirect_uri of the authorization request, compared exactly at the token endpoint. */
    redirectUri: p.string().length(2048),
    /** How the code was delivered; web_message codes never travel in a URL (see the grant). */
    responseMode: p.string().length(16),
    /** RFC 7636 S256 challenge (base64url, 43 characters). */
    codeChallenge: p.string().length(128),
    nonce: p.string().length(512).nullable(),
    scope: p.json<string[]>(),
    /** RFC 8707 resource indicator of the authorization request, for the access token's aud. */
    resource: p.string().length(2048).nullable(),
    /** RFC 9449 section 10: the DPoP key thumbprint (dpop_jkt) the redeeming proof must be made with. */
    dpopJkt: p.string().length(64).nullable(),
    userId: p.string().length(36).index(),
    /** The browser session (sessions.id) the tokens are minted on. */
    sessionId: p.string().length(64),
    authTime: p.datetime(),
    createdAt: p.datetime(),
    expiresAt: p.datetime().index(),
    usedAt: p.datetime().nullable(),
    /** token_records ids (hashes) of the access and ID token the exchange issued. */
    issuedTokenIds: p.json<string[]>(),
    /** The refresh family the exchange opened (offline_access), revoked whole on reuse. */
    issuedFamilyId: p.string().length(64).nullable(),
  },
});

export type AuthorizationCodeRow = InstanceType<typeof AuthorizationCode.class>;
