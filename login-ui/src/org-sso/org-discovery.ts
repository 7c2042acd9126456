/**
 * Home-realm discovery for the email-first sign-in (docs/api-overview.md#what-portcullis-does: verified domains route people to
 * their organization's IdP): the public `org_discovery` query, and the address that starts the organization's
 * SSO with this page's round trip carried along.
 */
import { call, type Output } from '../../../ui-shared/contract/public-call.ts';
import type { RoundTrip } from '../round-trip/round-trip.ts';
import { socialReturn } from '../social/social-providers.ts';

/**
 * Domain-level facts only: the same answer for every address of a domain, whether an account exists or not
 * (`sso_url` is `<--url>/sso/<organization>/start`).
 */
export type OrgDiscovery = Output<'org_discovery'>;

export async function discoverOrganization(email: string): Promise<OrgDiscovery> {
  return call('org_discovery', { email });
}

/**
 * The sso_url with the application's redirect_uri and state appended (the start endpoint requires both and
 * vets redirect_uri against the same allow-list as this page), and the typed address as login_hint so the
 * IdP need not ask for it again (OpenID Connect Core section 3.1.2.1). Without a round trip the person comes
 * back to this login page, which shows them signed in. Undefined for anything but an http(s) address.
 */
export function ssoStartHref(ssoUrl: string, email: string, roundTrip: RoundTrip, origin: string = window.location.origin): string | undefined {
  let url: URL;
  try {
    url = new URL(ssoUrl);
  } catch {
    return undefined;
  }
  if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.username || url.password) return undefined;
  const { redirectUri, state } = socialReturn(roundTrip, origin);
  url.searchParams.set('redirect_uri', redirectUri);
  url.searchParams.set('state', state);
  url.searchParams.set('login_hint', email);
  return url.toString();
}
