/**
 * The social upstreams' client as a member of Deps (modules/manifest.ts defineService): one per app, holding
 * the discovery and JWKS caches of the OIDC providers, built by buildApp from the social manifest.
 */
import type { Deps } from '../../kernel/deps.ts';
import { defineService } from '../manifest.ts';
import { SocialUpstreams } from './upstream-client.ts';

// Deps gets the member from this module (the kernel imports nothing of the app, docs/architecture.md).
declare module '../../kernel/deps.ts' {
  interface Deps {
    /** The social providers' client and its caches; absent in a Deps built without the module services. */
    readonly socialUpstreams?: SocialUpstreams;
  }
}

export const socialUpstreamsService = defineService({ key: 'socialUpstreams', create: () => new SocialUpstreams() });

/** The app's client; a Deps built without the module services cannot sign in socially. */
export function upstreamsOf(deps: Deps): SocialUpstreams {
  if (!deps.socialUpstreams) throw new Error('the socialUpstreams service was not built (modules/social manifest)');
  return deps.socialUpstreams;
}
