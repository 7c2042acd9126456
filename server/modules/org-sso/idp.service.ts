/**
 * The organizations' IdP client as a member of Deps (modules/manifest.ts defineService): one per app, holding
 * the discovery and key caches by issuer, built by buildApp from the org-sso manifest.
 */
import type { Deps } from '../../kernel/deps.ts';
import { defineService } from '../manifest.ts';
import { IdpClient } from './idp-client.ts';

// Deps gets the member from this module (the kernel imports nothing of the app, docs/architecture.md).
declare module '../../kernel/deps.ts' {
  interface Deps {
    /** The organizations' OpenID Connect IdP client and its caches; absent in a Deps built without the module services. */
    readonly idpClient?: IdpClient;
  }
}

export const idpClientService = defineService({ key: 'idpClient', create: () => new IdpClient() });

/** The app's client; a Deps built without the module services cannot sign in through an organization's IdP. */
export function idpClientOf(deps: Deps): IdpClient {
  if (!deps.idpClient) throw new Error('the idpClient service was not built (modules/org-sso manifest)');
  return deps.idpClient;
}
