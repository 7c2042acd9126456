/**
 * Tokens and the session lifecycle built on them (docs/tokens.md): signing keys, claim sets, JWT
 * signing and verification, the custom-claims sandbox, the stored token records, and what account flows
 * call to issue, refresh, validate, revoke and end sessions, plus the `user` authenticator. Session rows
 * themselves are in modules/sessions.
 */
import { defineModule, defineService, defineWorker } from '../manifest.ts';
import type { RetentionOptions, RetentionWorker } from '../audit/index.ts';
import { createExpirySweepWorker } from './expiry-sweep.ts';
import { openTokenStateCache as openTokenState } from './state-cache/index.ts';
import { TokenRecord } from './token-record.entity.ts';
import { UsedDpopProof } from './dpop/used-proof.entity.ts';
import { subscription } from '../../kernel/hooks.ts';
import { onSessionRevoked } from '../sessions/index.ts';
import { revokeTokensOfSession } from './end-session.ts';
import { jwksEndpoint } from './jwks.endpoint.ts';

export { loadSigningKeys, type SigningKeys } from './signing-keys.ts';
export { ACCESS_TOKEN_SECONDS, ID_TOKEN_SECONDS, REFRESH_TOKEN_SECONDS, ABSOLUTE_SESSION_SECONDS, absoluteEndOf } from './lifetimes.ts';
export { TokenRecord, type TokenRecordRow, type TokenKind } from './token-record.entity.ts';
export { issuerOf, signToken, verifyToken, TOKEN_TYPES, type Claims, type TokenType } from './jwt.ts';
export { ANY_CLIENT, FIRST_PARTY, issuedTo, audienceAccepts, registeredClientOf, type Audience } from './audience.ts';
export {
  RESERVED_CLAIMS, accessTokenClaims, idTokenClaims, refreshTokenClaims, amrFor, atHash, expiryOf, type Grant,
} from './claims.ts';
export { customClaims, CUSTOM_SCRIPT_TIMEOUT_MS } from './custom-claims-script.ts';
export { orgSsoLoginMethod, orgIdOfLoginMethod, orgClaimsFor, type OrgClaims } from './org-claims.ts';
export {
  recordToken, findTokenRecord, recordIsLive, revokeTokenRecords, claimRefreshRotation, deleteTokenRecordsOfUser,
  sessionsWithLiveRecords, type NewTokenRecord,
} from './token-records.ts';
// The session lifecycle with its tokens: what account flows call.
export { issueSession, openSessionFromApproval, DEFAULT_SCOPE, OFFLINE_ACCESS, type IssueSessionOptions, type ApprovingSession } from './issue-session.ts';
export { mintTokens, type TokenSet } from './mint-tokens.ts';
export { sidOf } from './session-id-claim.ts';
export { claimsForScope, scopeList } from './scope-claims.ts';
export { invalidateTokenState, openTokenStateCache, openFleetChannel, type StateChange, type ChannelEvents, type InvalidationChannel } from './state-cache/index.ts';
export { createExpirySweepWorker, expiredTokenRecordsTask, expiredSessionsTask } from './expiry-sweep.ts';
export { refreshTokens, InvalidScopeError, InvalidTargetError, type RefreshedTokens } from './refresh.ts';
export { endSession, revokeSession, revokeAllForUser, revokeOtherSessions, purgeTokensForUser, revokeRefreshToken } from './end-session.ts';
export { validateToken, checkIssuedToken, checkIssuedTokenInMemory, currentRolesOf, withCurrentRoles, type IssuedToken } from './validate-token.ts';
export { validateSessionToken } from '../sessions/index.ts';
export { userAuthenticator, userCredentialsPresented } from './user-authenticator.ts';
export {
  DPOP_SIGNING_ALGORITHMS, DPOP_PROOF_WINDOW_SECONDS, DpopProofError, accessTokenHash, acceptDpopProof, boundKeyOf, confirmationOf,
  tokenTypeFor, requireProofOfPossession, refuseBoundAsBearer, BindingRefusal, type PresentedProof, type VerifiedProof,
} from './dpop/index.ts';

export const tokensModule = defineModule({
  name: 'tokens',
  entities: [TokenRecord, UsedDpopProof],
  endpoints: [jwksEndpoint],
  // An admin's revoke_session (modules/sessions) ends the tokens issued for the session too.
  hooks: [subscription(onSessionRevoked, revokeTokensOfSession)],
  // Live token state in memory (docs/tokens.md#tokens-are-stateful), closed before storage.
  services: [
    defineService({
      key: 'tokenState',
      create: (deps) => openTokenState(deps.config, deps.storage, deps.logger),
      close: async (cache) => cache?.close(),
    }),
  ],
  // Deletes expired token records and sessions in bounded batches, on one instance at a time (expiry-sweep.ts).
  workers: [defineWorker<RetentionWorker, RetentionOptions>({ name: 'expiry-sweep', create: createExpirySweepWorker })],
});
