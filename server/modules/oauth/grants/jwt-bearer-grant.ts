/**
 * grant_type=urn:ietf:params:oauth:grant-type:jwt-bearer (RFC 7523 section 2.1): a workload exchanges an
 * assertion from a trusted issuer (a Kubernetes or SPIFFE token, another IdP's JWT) for an access token of
 * the issuer's owning client. The assertion is matched to an active trusted issuer by iss (and, when several
 * clients trust one iss, by the audience each expects), verified with that issuer's JWKS (assertions.ts:
 * asymmetric signature, iss, aud, exp, nbf, iat, jti), and its jti is spent once (assertion-replay.ts). The
 * token's subject is the issuer's subject_claim. Client authentication is optional here (RFC 7523 section
 * 3.1), but a client that did authenticate must be the owning client: another client cannot spend an
 * assertion meant for someone else. No refresh token and no ID token: the caller holds the assertion and
 * asks again (RFC 7523 section 2.1 leaves refresh to the server; a refresh would outlive the assertion).
 *
 * The access token is not recorded in token_records (its subject is not a user of this server); it lives
 * ACCESS_TOKEN_SECONDS and carries aud = azp = client_id of the owning client (claims.ts convention).
 */
import type { JWTPayload } from 'jose';
import { OAuthError } from '../../../kernel/oauth-error.ts';
import { Client, activeIssuersNamed, AssertionError, CLOCK_TOLERANCE_SECONDS, peekAssertion, verifyAssertion, consumeAssertionId } from '../../clients/index.ts';
import type { TrustedIssuerRow } from '../../clients/index.ts';
import type { AuthenticatedClient } from '../client-auth.ts';
import { scopeField, stringField } from '../oauth-body.ts';
import type { Grant, GrantRequest } from './grant.ts';
import { clientAccessTokenResponse, scopeWithinAllowed } from './client-access-token.ts';

export const JWT_BEARER_GRANT_TYPE = 'urn:ietf:params:oauth:grant-type:jwt-bearer';

/**
 * Longest lifetime left on a grant assertion. Workload tokens live longer than client assertions (a
 * Kubernetes projected token defaults to one hour); the cap bounds how long a jti is remembered.
 */
export const MAX_GRANT_ASSERTION_SECONDS = 24 * 3600;
const MAX_SUBJECT_LENGTH = 255;

class GrantRefusal extends Error {
  readonly error: 'invalid_grant';

  constructor(error: 'invalid_grant', message: string) {
    super(message);
    this.error = error;
  }
}

function audiencesOf(payload: JWTPayload): string[] {
  if (typeof payload.aud === 'string') return [payload.aud];
  return Array.isArray(payload.aud) ? payload.aud.filter((a): a is string => typeof a === 'string') : [];
}

/**
 * The one trusted issuer this assertion is for: active, named by its iss, owned by the calling client when
 * the caller authenticated, and expecting an aud the assertion carries.
 */
function issuerFor(candidates: TrustedIssuerRow[], payload: JWTPayload, caller: AuthenticatedClient): TrustedIssuerRow {
  const authenticated = caller.method !== 'none' || caller.registered !== undefined;
  const owned = authenticated ? candidates.filter((row) => row.clientId === caller.registered?.clientId) : candidates;
  if (owned.length === 0) {
    throw new GrantRefusal('invalid_grant', authenticated
      ? 'the authenticated client does not trust an active issuer with this iss'
      : 'the assertion\'s iss is not an active trusted issuer');
  }
  const audiences = audiencesOf(payload);
  const matching = owned.filter((row) => audiences.includes(row.audience));
  if (matching.length === 0) throw new GrantRefusal('invalid_grant', 'the assertion\'s aud does not name the audience its trusted issuer expects');
  if (matching.length > 1) {
    throw new GrantRefusal('invalid_grant', 'several clients trust this issuer and audience: authenticate as the owning client');
  }
  return matching[0]!;
}

function subjectOf(payload: JWTPayload, claim: string): string {
  const value = (payload as Record<string, unknown>)[claim];
  if (typeof value !== 'string' || value === '' || value.length > MAX_SUBJECT_LENGTH) {
    throw new GrantRefusal('invalid_grant', `the assertion's ${claim} claim (the issuer's subject_claim) must be a string of 1 to ${MAX_SUBJECT_LENGTH} characters`);
  }
  return value;
}

async function exchange({ ctx, body, client: caller, dpopJkt }: GrantRequest, assertion: string, issuerValue: string): Promise<Record<string, unknown>> {
  const { deps, em } = ctx;
  const row = issuerFor(await activeIssuersNamed(em, issuerValue), peekAssertion(assertion).payload, caller);
  const owner = await em.findOne(Client, { clientId: row.clientId });
  if (!owner || !owner.isActive) throw new GrantRefusal('invalid_grant', 'the client that owns this trusted issuer is not active');
  const now = deps.clock.now();
  const { payload } = await verifyAssertion(deps, [row], assertion, {
    issuer: issuerValue,
    audiences: [row.audience],
    maxLifetimeSeconds: MAX_GRANT_ASSERTION_SECONDS,
    now,
  });
  const subject = subjectOf(payload, row.subjectClaim);
  const scope = scopeWithinAllowed(scopeField(body), owner.allowedScopes);
  const keepUntil = new Date((payload.exp! + CLOCK_TOLERANCE_SECONDS) * 1000);
  if (!(await consumeAssertionId(deps.storage.fork(), deps, 'issuer', issuerValue, payload.jti!, keepUntil, now))) {
    throw new GrantRefusal('invalid_grant', 'the assertion was already used (jti replay)');
  }
  return clientAccessTokenResponse(deps, owner.clientId, subject, scope, undefined, dpopJkt);
}

function refusal(err: GrantRefusal | AssertionError): OAuthError {
  return new OAuthError(400, err instanceof GrantRefusal ? err.error : 'invalid_grant', err.message);
}

export const jwtBearerGrant: Grant = {
  grantType: JWT_BEARER_GRANT_TYPE,
  async handle(input) {
    const { ctx: { deps }, body } = input;
    const assertion = stringField(body, 'assertion');
    if (!assertion) throw OAuthError.invalidRequest('assertion is required');
    let issuerValue: string;
    try {
      const { iss } = peekAssertion(assertion).payload;
      if (typeof iss !== 'string' || iss === '' || iss.length > 255) throw new OAuthError(400, 'invalid_grant', 'the assertion needs an iss');
      issuerValue = iss;
    } catch (err) {
      if (err instanceof AssertionError) throw refusal(err);
      throw err;
    }
    const limitKey = `issuer:${issuerValue}`;
    const wait = await deps.limits.retryAfter('client_assertion_failure', limitKey);
    if (wait > 0) {
      const limited = new OAuthError(400, 'invalid_grant', 'too many failed assertions from this issuer: try again later');
      limited.retryAfterSeconds = Math.ceil(wait);
      throw limited;
    }
    try {
      return await exchange(input, assertion, issuerValue);
    } catch (err) {
      // An out-of-bounds scope (an OAuthError already) is the caller's request, not a bad assertion: it
      // passes uncounted. Every refusal of the assertion itself counts.
      if (!(err instanceof GrantRefusal) && !(err instanceof AssertionError)) throw err;
      await deps.limits.consume('client_assertion_failure', limitKey).catch(() => undefined);
      throw refusal(err);
    }
  },
};
