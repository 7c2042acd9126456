/**
 * One use per assertion (SAML 2.0 Profiles 4.1.4.5: the SP keeps the ID of each bearer assertion it
 * accepted until the assertion expires, and refuses it again). The insert on the digest key is the check,
 * so two concurrent posts of one response cannot both pass on any database (storage/single-use.ts). This comes on top of the
 * single-use flow (saml-login-state.ts), which already refuses a second response to the same request.
 */
import type { Deps } from '../../kernel/deps.ts';
import { sha256Hex } from '../../kernel/crypto.ts';
import { useOnce } from '../../storage/single-use.ts';
import { OrgSamlAssertionUse } from './saml-connection.entities.ts';

/** False when the assertion was used before. */
export function recordAssertionUse(deps: Pick<Deps, 'storage' | 'clock'>, orgId: string, connectionId: string, assertionId: string, usableUntil: Date): Promise<boolean> {
  const row = { id: sha256Hex(`${connectionId}:${assertionId}`), orgId, expiresAt: usableUntil };
  return useOnce(deps.storage.fork(), OrgSamlAssertionUse, row, deps.clock.now(), deps);
}
