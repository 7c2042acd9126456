/**
 * What the social sign-in endpoints share: the redirect URI registered at every upstream, and the page of a
 * provider this server does not offer.
 */
import type { Deps } from '../../kernel/deps.ts';
import { signInPage } from '../../ops/sign-in-pages.ts';
import type { EndpointAnswer } from '../../ops/endpoint.ts';

/** The redirect URI registered at every upstream: {--url}/oauth_callback/<provider>. */
export function callbackUrl(deps: Pick<Deps, 'config'>, provider: string): string {
  return `${deps.config.url!.replace(/\/+$/, '')}/oauth_callback/${provider}`;
}

/** The page of a provider this server does not offer (unknown or not configured). */
export function unknownProvider(): EndpointAnswer {
  return signInPage(404, 'Unknown sign-in provider', ['This server does not offer sign-in with that provider.']);
}
