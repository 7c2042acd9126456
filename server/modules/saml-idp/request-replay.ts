/**
 * One answer per AuthnRequest ID (SAML 2.0 Core 1.3.4: IDs are unique; a request seen again is a replay).
 * The insert on the digest key is the check, so two concurrent uses of one request cannot both pass on any
 * database (storage/single-use.ts). Kept until the request could no longer pass the freshness rule
 * (authn-request.ts).
 */
import type { Deps } from '../../kernel/deps.ts';
import { sha256Hex } from '../../kernel/crypto.ts';
import { useOnce } from '../../storage/single-use.ts';
import { SamlIdpRequestUse } from './sso-state.entities.ts';
import { CLOCK_SKEW_MS, REQUEST_MAX_AGE_MS } from './authn-request.ts';

/** False when this service provider's request ID was used before. */
export function recordRequestUse(deps: Pick<Deps, 'storage' | 'clock'>, orgId: string, serviceProviderId: string, requestId: string, issueInstant: Date): Promise<boolean> {
  const row = { id: sha256Hex(`${serviceProviderId}:${requestId}`), orgId, expiresAt: new Date(issueInstant.getTime() + REQUEST_MAX_AGE_MS + 2 * CLOCK_SKEW_MS) };
  return useOnce(deps.storage.fork(), SamlIdpRequestUse, row, deps.clock.now(), deps);
}
