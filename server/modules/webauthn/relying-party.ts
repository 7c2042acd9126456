/**
 * This server as a WebAuthn Relying Party (W3C WebAuthn Level 3 section 5.1.2 and 5.1.4: the RP ID a
 * credential is scoped to, and the origin the browser reports in clientDataJSON).
 *
 * - RP ID: the host name of --url (section 5.1.2 "RP ID": a registrable domain suffix of, or equal to, the
 *   caller's origin's effective domain). Not a parent domain: a passkey scoped to example.com would be usable
 *   by every sibling application under it.
 * - Origin: exactly the origin of --url (section 7.1 step 9 and 7.2 step 13): the login UI is served from it.
 *
 * @simplewebauthn/server (with its ASN.1 and X.509 dependencies) is loaded by the first ceremony, not at
 * start: most servers see few passkey ceremonies, and start time and idle memory are budgeted
 * (bench/RESULTS.md). The bundle carries it as an asset of its own (build/driver-bundles.ts).
 */
import type { Config } from '../../config/flags.ts';
import { AppError } from '../../kernel/errors.ts';
import { webauthnEnabled } from '../mfa/index.ts';

export interface RelyingParty {
  id: string;
  name: string;
  origin: string;
}

export const WEBAUTHN_DISABLED = 'passkeys (WebAuthn) are disabled for this instance';

/** The relying party of this instance; refuses when passkeys are off (docs/api-overview.md#versioning flags). */
export function relyingParty(config: Config): RelyingParty {
  if (!webauthnEnabled(config)) throw AppError.precondition(WEBAUTHN_DISABLED);
  if (!config.url) throw AppError.precondition('passkeys need --url: it names the relying party');
  const url = new URL(config.url);
  return { id: url.hostname, name: config.organizationName || url.hostname, origin: url.origin };
}

export type WebauthnLibrary = typeof import('@simplewebauthn/server');

export function loadWebauthn(): Promise<WebauthnLibrary> {
  return import('@simplewebauthn/server');
}

/**
 * Algorithms accepted for new credentials (COSE ids; section 5.8.2 `pubKeyCredParams`): EdDSA, ES256 and
 * RS256, the set every platform authenticator uses one of.
 */
export const SUPPORTED_ALGORITHMS = [-8, -7, -257];
