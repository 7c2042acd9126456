/**
 * private_key_jwt client authentication (RFC 7523 section 2.2 and section 3; OpenID Connect Core section 9): a
 * client_assertion whose iss and sub are the client_id, signed by a key of the JWKS of an active trusted
 * issuer of that active registered client (modules/clients/assertions.ts checks the signature, aud, exp,
 * nbf, iat and jti). aud must contain this server's token endpoint URL, or its issuer identifier, which
 * OpenID Connect Core section 9 also allows and openid-client sends. exp may lie at most five minutes ahead,
 * so the jti each assertion spends is remembered only that long; a replayed jti is refused on every
 * instance (assertion-replay.ts). Failures count against the client_id (client_assertion_failure bucket).
 */
import type { Deps } from '../../kernel/deps.ts';
import { issuerOf } from '../tokens/index.ts';
import { Client, activeIssuersOfClient, tokenEndpointUrl, AssertionError, CLOCK_TOLERANCE_SECONDS, peekAssertion, verifyAssertion, consumeAssertionId } from '../clients/index.ts';
import type { ClientCheck } from './client-auth.ts';

export const CLIENT_ASSERTION_TYPE = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';

/** Whether authenticateByAssertion can succeed; discovery advertises private_key_jwt only then. */
export const PRIVATE_KEY_JWT_SERVED = true;

/** Longest lifetime left on a client assertion (OpenID Connect Core section 9: "short-lived"). */
export const MAX_CLIENT_ASSERTION_SECONDS = 300;

function refused(description: string): ClientCheck {
  return { ok: false, description, usedBasic: false };
}

export async function authenticateByAssertion(deps: Deps, assertion: string, claimedClientId: string | undefined): Promise<ClientCheck> {
  let clientId: string;
  try {
    const { payload } = peekAssertion(assertion);
    if (typeof payload.iss !== 'string' || payload.iss === '' || payload.iss.length > 64) {
      return refused('the client assertion\'s iss must be the client_id');
    }
    clientId = payload.iss;
  } catch (err) {
    if (err instanceof AssertionError) return refused(err.message);
    throw err;
  }
  if (claimedClientId !== undefined && claimedClientId !== clientId) {
    return refused('client_id differs from the client assertion\'s iss');
  }
  const limitKey = `client:${clientId}`;
  if ((await deps.limits.retryAfter('client_assertion_failure', limitKey)) > 0) {
    return refused('too many failed client assertions for this client: try again later');
  }
  const failed = async (description: string): Promise<ClientCheck> => {
    // consume throws once the allowance is spent; the refusal below says the same either way.
    await deps.limits.consume('client_assertion_failure', limitKey).catch(() => undefined);
    return refused(description);
  };
  const em = deps.storage.fork();
  const client = await em.findOne(Client, { clientId });
  const issuers = client?.isActive ? await activeIssuersOfClient(em, clientId) : [];
  // One answer for an unknown client, an inactive one and one without an active issuer: no enumeration.
  if (!client || issuers.length === 0) return failed('no active client with an active trusted issuer has this client_id');
  const now = deps.clock.now();
  let exp: number;
  let jti: string;
  try {
    const { payload } = await verifyAssertion(deps, issuers, assertion, {
      issuer: clientId,
      subject: clientId,
      audiences: [tokenEndpointUrl(deps.config), issuerOf(deps.config)],
      maxLifetimeSeconds: MAX_CLIENT_ASSERTION_SECONDS,
      now,
    });
    exp = payload.exp!;
    jti = payload.jti!;
  } catch (err) {
    if (err instanceof AssertionError) return failed(err.message);
    throw err;
  }
  const keepUntil = new Date((exp + CLOCK_TOLERANCE_SECONDS) * 1000);
  if (!(await consumeAssertionId(deps.storage.fork(), deps, 'client', clientId, jti, keepUntil, now))) {
    return failed('the client assertion was already used (jti replay)');
  }
  return { ok: true, client: { clientId, registered: client, method: 'private_key_jwt' } };
}
